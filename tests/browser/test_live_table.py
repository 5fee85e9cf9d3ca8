"""The live table, peer to peer (issue #45, deliverable 1): the game master's Kampfhelfer page
and each phone connect over a WebRTC data channel with no server at all (``iceServers: []``:
host candidates only) – the offer travels in the QR code's link beside the picture, the
phone's answer comes back as a code the game master pastes or scans with the laptop camera –
and from then on every step of the fight reaches the phone by itself.

The game master and the phones are separate browsers (no shared storage, no
BroadcastChannel between them): the game master's page in a Chromium of its own, launched
with a fake camera that shows a file (the phone's answer code, screenshot and converted to
a Y4M video here, no image tools needed), the phones in the session's Chromium.

- the paste path: the snapshot shows at once, the answer pasted, a scripted fight („Weiter“
  three times, a wound typed into the overview) followed on the phone step by step; every
  message on the phone's channel is captured: nothing of a „verbergen“ fighter, no values,
  state, effects or place of a „nichts“ fighter; a reload of the phone reconnects by itself
  (the spare offer, the kept certificate);
- the channel dropped (as when a phone sleeps) comes back by itself;
- the camera path: the phone's answer QR code read through Chromium's fake capture device
  (jsQR: Debian's Chromium has no BarcodeDetector); „Trennen“ ends it on the phone,
  „Neu verbinden“ gives a code for that phone that connects it again as the same „Handy“;
- a phone whose connection cannot be made (no WebRTC; candidates nobody reaches) says so in
  German and keeps the link's picture; the game master's list says „keine Verbindung“.
The page's strict CSP holds throughout (conftest's ``page_errors``).
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness import deadlines
from harness.player_link import from_base42, to_base42
from tests.browser.conftest import (
    ALL_HELPERS_SET_UP,
    CHROMIUM,
    CHROMIUM_ARGS,
    Browsers,
    seed_storage,
    wait_engine_ready,
)
from tests.browser.test_effects import journal_with_order, keeps_ticks, put_on, weiter
from tests.browser.test_player_view import choose_show, open_share
from tests.browser.test_whole_fight import fight_systems

pytestmark = pytest.mark.browser

# Every message a phone's data channel receives, in order, and the channels (the page's own
# code is not asked).
CAPTURE = """
window.__rwLive = [];
window.__rwChannels = [];
const make = RTCPeerConnection.prototype.createDataChannel;
RTCPeerConnection.prototype.createDataChannel = function (...args) {
  const channel = make.apply(this, args);
  window.__rwChannels.push(channel);
  channel.addEventListener("message", (event) => window.__rwLive.push(event.data));
  return channel;
};
"""
NO_WEBRTC = "delete window.RTCPeerConnection; delete window.webkitRTCPeerConnection;"
ARRIVES_MS = 10_000  # a step reaches the phone in well under a second; generous on a busy box


# ------------------------------------------------------------------ the answer code as a video


def png_pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG as Chromium writes a screenshot (8-bit RGB or RGBA, not interlaced) → width,
    height and the rows as grey values (0–255)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, data, width, height, colour = 8, b"", 0, 0, 0
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and not interlace, (depth, colour, interlace)
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    raw, step = zlib.decompress(data), 3 if colour == 2 else 4
    stride, rows, previous = width * step, [], bytearray(width * step)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + pred) & 255
        previous = line
        rows.append(bytes(sum(line[x * step : x * step + 3]) // 3 for x in range(width)))
    return width, height, rows


def write_y4m(png: bytes, path: Path, width: int = 640, height: int = 480) -> None:
    """The screenshot centred on a white 640 × 480 frame, as a one-frame Y4M video (4:2:0,
    grey: the chroma planes neutral) – what Chromium's fake camera plays in a loop."""
    w, h, rows = png_pixels(png)
    assert w <= width and h <= height, (w, h)
    frame = bytearray([235]) * (width * height)
    left, top = (width - w) // 2, (height - h) // 2
    for y, row in enumerate(rows):
        at = (top + y) * width + left
        frame[at : at + w] = bytes(16 + v * 219 // 255 for v in row)
    header = f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode()
    path.write_bytes(header + b"FRAME\n" + bytes(frame) + bytes([128]) * (width * height // 2))


# ------------------------------------------------------------------ the game master


class Table:
    """The game master's Kampfhelfer page in a Chromium of its own, live on, and the
    session's Chromium for the phones."""

    def __init__(self, page: Any, system: str, camera: Path, browsers: Browsers) -> None:
        self.page, self.system, self.camera, self.browsers = page, system, camera, browsers

    def invitation(self) -> str:
        """The link with the offer for a new phone (the QR code's link); where the code in
        the box is one for a phone to reconnect, „Neues Handy einladen“ first."""
        caption = self.page.locator(".rw-live-qr figcaption")
        caption.wait_for()
        if "ein neues Handy" not in caption.inner_text():
            self.page.get_by_role("button", name="Neues Handy einladen").click()
            caption.filter(has_text="ein neues Handy").wait_for()
        return str(self.page.locator(".rw-live-link").input_value())

    def phone(self, *scripts: str) -> Any:
        context = self.browsers.context(width=375, init_scripts=scripts)
        return context.new_page()

    def phone_state(self, number: int) -> str:
        return str(
            self.page.locator(f'.rw-live-phone[data-handy="{number}"]').get_attribute("data-state")
        )


@pytest.fixture(scope="module")
def table(
    browsers: Browsers, site_url: str, built_site: Path, tmp_path_factory: Any
) -> Iterator[Table]:
    """One fight for the module: Alrik on „Werte“, Ork „verbergen“, Bruna „nichts“, both of
    them „betäubt“ – live on."""
    camera = tmp_path_factory.mktemp("kamera") / "antwort.y4m"
    flags = [
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={camera}",
    ]
    browser = browsers.browser.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS + flags, timeout=deadlines.STEP_S * 1000
    )
    context = browsers.watch.follow(
        browser.new_context(
            locale="de-DE", viewport={"width": 1280, "height": 900}, service_workers="block"
        )
    )
    page = context.new_page()
    system = next(s for s in fight_systems() if not keeps_ticks(built_site, s))
    seed_storage(page, site_url, {f"regelwerk:kampf:{system}": journal_with_order()})
    page.goto(f"{site_url}{system}/kampfhelfer/")
    wait_engine_ready(page)
    page.wait_for_function(ALL_HELPERS_SET_UP, polling=100)
    put_on(page, "Ork", "3", "runden")
    put_on(page, "Bruna", "3", "runden")
    choose_show(page, "Alrik", "werte")
    choose_show(page, "Ork", "verbergen")
    choose_show(page, "Bruna", "nichts")
    open_share(page).get_by_role("button", name="Live verbinden").click()
    yield Table(page, system, camera, browsers)
    context.close()
    browser.close()


def actor_line(phone: Any, text: str) -> None:
    phone.wait_for_function(
        "t => { const l = document.querySelector('.rw-player-actor-line');"
        " return l && l.textContent === t; }",
        arg=text,
        polling=50,
        timeout=ARRIVES_MS,
    )


def has_spare(phone: Any) -> None:
    """Wait until the phone keeps a spare offer (the game master's page sends one a moment
    after each connection; players/live-keep.js)."""
    phone.wait_for_function(
        "() => (JSON.parse(sessionStorage.getItem('regelwerk:spieler-verbindung')) || {}).spare",
        polling=50,
    )


def live_connected(phone: Any) -> None:
    phone.locator(".rw-player-live-status--ok").wait_for()
    assert phone.locator(".rw-player-live-status").inner_text().startswith("Live verbunden")


def names_on(phone: Any) -> list[str]:
    phone.locator(".rw-player-list").wait_for()
    return [t.strip() for t in phone.locator(".rw-player-name").all_inner_texts()]


def answer_of(phone: Any) -> str:
    """The phone's answer code (or the phone's message why there is none)."""
    phone.wait_for_function(
        "() => document.querySelector('.rw-player-live-code, .rw-player-live-status--fehler')",
        polling=50,
    )
    code = phone.locator(".rw-player-live-code")
    assert code.count(), phone.locator(".rw-player-live-status").inner_text()
    return str(code.input_value())


def paste(table: Table, code: str) -> None:
    field = table.page.get_by_label("Antwort-Code des Handys (als Text)")
    field.fill(code)
    table.page.get_by_role("button", name="Verbinden", exact=True).click()


def wait_state(table: Table, number: int, state: str) -> None:
    table.page.wait_for_function(
        "([n, s]) => document.querySelector("
        "`.rw-live-phone[data-handy='${n}'][data-state='${s}']`)",
        arg=[number, state],
        polling=100,
    )


def phones_listed(table: Table) -> int:
    return int(table.page.locator(".rw-live-phone").count())


def new_phone(table: Table, before: int) -> int:
    """The number of the phone the game master's list got after ``before`` phones."""
    table.page.wait_for_function(
        "n => document.querySelectorAll('.rw-live-phone').length > n", arg=before, polling=50
    )
    return int(table.page.locator(".rw-live-phone").nth(before).get_attribute("data-handy") or 0)


def assert_only_the_chosen_picture(messages: list[str]) -> None:
    """#45 („secrets“): only what the game master chose leaves his device, live as in the link."""
    pictures = [m for m in messages if '"t":"bild"' in m]
    assert pictures, messages
    for text in messages:
        assert "Ork" not in text and "betäubt" not in text, text
    for text in pictures:
        lines = re.search(r'"d":"(.*)"\}$', text).group(1).split("\\n")  # type: ignore[union-attr]
        bruna = next(line for line in lines if line.startswith("Bruna\\t"))
        assert bruna.split("\\t")[1:] == ["", "n", "", ""], bruna


def test_paste_path_follows_the_fight_step_by_step(table: Table) -> None:
    """#45 deliverable 1: the snapshot at once, the answer pasted as text, then every step of
    the fight on the phone – and after a reload the phone is back by itself."""
    phone = table.phone(CAPTURE)
    phone.goto(table.invitation())
    assert names_on(phone) == ["Alrik", "Bruna"]  # the link's picture, before any connection
    code = answer_of(phone)
    # a finger's reach at 375 px: the code's field and „Code kopieren“
    for target in (".rw-player-live-code", ".rw-player-live-copy"):
        height = phone.locator(target).evaluate("e => e.getBoundingClientRect().height")
        assert height >= 44, (target, height)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    before = phones_listed(table)
    paste(table, code)
    live_connected(phone)
    number = new_phone(table, before)
    wait_state(table, number, "verbunden")
    assert "verbunden" in table.page.locator(f'.rw-live-phone[data-handy="{number}"]').inner_text()
    assert table.page.locator(".rw-live-phones").get_attribute("aria-live") == "polite"
    actor_line(phone, "Am Zug: Alrik")
    weiter(table.page)  # Ork acts: hidden from the players
    actor_line(phone, "Noch niemand am Zug")
    weiter(table.page)
    actor_line(phone, "Am Zug: Bruna")
    weiter(table.page)
    actor_line(phone, "Am Zug: Alrik")
    wound = table.page.locator("input.rw-overview-value[aria-label$=' von Alrik']").first
    resource = str(wound.get_attribute("aria-label")).removesuffix(" von Alrik")
    wound.fill("7")
    wound.press("Tab")
    phone.wait_for_function(
        "t => [...document.querySelectorAll('.rw-player-status')]"
        ".some(s => s.textContent.includes(t))",
        arg=f"{resource} 7",
        polling=50,
        timeout=ARRIVES_MS,
    )
    assert_only_the_chosen_picture(phone.evaluate("window.__rwLive"))
    # the channel drops (as when the phone sleeps): the spare offer, answered at once – a new
    # channel open, and the phone says so
    has_spare(phone)
    channels = phone.evaluate(
        "() => { window.__rwChannels.at(-1).close(); return window.__rwChannels.length; }"
    )
    phone.wait_for_function(
        "n => window.__rwChannels.length > n && window.__rwChannels.at(-1).readyState === 'open'"
        " && document.querySelector('.rw-player-live-status--ok')",
        arg=channels,
        polling=50,
    )
    live_connected(phone)
    weiter(table.page)
    actor_line(phone, "Noch niemand am Zug")
    wait_state(table, number, "verbunden")
    # a reload: the spare offer kept in this tab, answered with the known answer
    has_spare(phone)
    phone.reload()
    live_connected(phone)
    weiter(table.page)
    actor_line(phone, "Am Zug: Bruna")
    assert table.phone_state(number) == "verbunden"
    assert_only_the_chosen_picture(phone.evaluate("window.__rwLive"))
    phone.context.close()


def test_camera_path_and_the_game_master_ends_it(table: Table) -> None:
    """#45 deliverable 1: the phone's answer QR code read by the laptop's camera (Chromium's
    fake capture device plays a screenshot of it; jsQR reads it, loaded only now); „Trennen“
    tells the phone."""
    phone = table.phone()
    phone.goto(table.invitation())
    qr = phone.locator(".rw-player-live-qr svg")
    qr.wait_for()
    assert qr.get_attribute("aria-label") == "Antwort-Code für die Spielleitung"
    write_y4m(qr.screenshot(), table.camera)
    scripts = "() => [...document.scripts].some(s => s.src.endsWith('/qr-decoder.js'))"
    assert not table.page.evaluate(scripts), "no decoder before the camera opens"
    before = phones_listed(table)
    table.page.get_by_role("button", name="Antwort-Code scannen").click()
    live_connected(phone)
    assert table.page.evaluate(scripts), "the decoder is loaded when the camera opens"
    number = new_phone(table, before)
    before = phone.locator(".rw-player-actor-line").inner_text()
    weiter(table.page)
    phone.wait_for_function(
        "t => document.querySelector('.rw-player-actor-line').textContent !== t",
        arg=before,
        polling=50,
        timeout=ARRIVES_MS,
    )
    table.page.get_by_role("button", name=f"Trennen: Handy {number}").click()
    phone.wait_for_function(
        "() => document.querySelector('.rw-player-live-status').textContent.includes('beendet')",
        polling=100,
    )
    assert table.phone_state(number) == "getrennt"
    assert names_on(phone) == ["Alrik", "Bruna"]  # the last picture stays
    # „Neu verbinden“: a code for this phone; scanned (its link opened), the answer pasted
    table.page.get_by_role("button", name=f"Neu verbinden: Handy {number}").click()
    caption = table.page.locator(".rw-live-qr figcaption")
    caption.filter(has_text=f"Handy {number} (neu verbinden)").wait_for()
    phone.goto(str(table.page.locator(".rw-live-link").input_value()))
    paste(table, answer_of(phone))
    live_connected(phone)
    wait_state(table, number, "verbunden")
    assert "(neu verbinden)" not in caption.inner_text()  # the next code invites a new phone
    phone.context.close()


def other_candidates(code: str, candidates: bytes) -> str:
    """An offer or answer code (players/sdp.js) with other candidates: ``candidates`` is
    their count and bytes."""
    version, data = code.split(".", 1)
    raw = from_base42(data)
    at = 1  # kind and role
    strings = 3 if raw[0] >> 2 == 2 else 2  # an answer names the offer's ice-ufrag first
    for _ in range(strings):  # ice-ufrag and ice-pwd, 6 bits a character
        at += 1 + -(-raw[at] * 6 // 8)
    raw = raw[: at + 32] + candidates
    return f"{version}.{to_base42(raw)}"


NOWHERE = bytes([1, 4, 0, 9, 10, 255, 255, 1])  # one IPv4 candidate: 10.255.255.1, port 9


def test_no_connection_keeps_the_snapshot(table: Table) -> None:
    """#45 deliverable 1: a phone without WebRTC says so in German and shows the link's
    picture; where neither side's candidates are reached (a Wi-Fi that keeps devices apart:
    the codes' candidates replaced) the game master's page says „keine Verbindung“ and what
    to do, and the phone keeps the link's picture."""
    phone = table.phone(NO_WEBRTC)
    phone.goto(table.invitation())
    assert names_on(phone) == ["Alrik", "Bruna"]
    status = phone.locator(".rw-player-live-status--fehler")
    status.wait_for()
    assert "Live geht mit diesem Browser nicht" in status.inner_text()
    assert status.get_attribute("role") == "status"
    phone.context.close()
    # a network that keeps the devices apart: neither side's candidates are reached
    page, offer = table.invitation().split("&o=", 1)
    phone = table.phone()
    phone.goto(f"{page}&o={other_candidates(offer, bytes([0]))}")
    before = phones_listed(table)
    paste(table, other_candidates(answer_of(phone), NOWHERE))
    number = new_phone(table, before)
    wait_state(table, number, "fehlgeschlagen")
    said = table.page.locator(".rw-live-status").inner_text()
    assert "keine Verbindung" in said and "WLAN" in said, said
    assert names_on(phone) == ["Alrik", "Bruna"]
    phone.context.close()
