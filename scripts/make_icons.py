"""Draw the installable app's icons (static/site/icons/): 192 and 512 px, and a maskable 512 px.

The PNGs are committed; run this only to redraw them (needs Pillow, which the site itself does not):
    pip install --target /tmp/pil pillow && PYTHONPATH=/tmp/pil python scripts/make_icons.py
A maskable icon is cropped by the phone to any shape inside the central 80 % circle: its card stays
inside that safe zone and the green fills the whole square.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "static" / "site" / "icons"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
GREEN, PAPER, GOLD, INK = "#0b4a2f", "#fffdf6", "#d4af37", "#1b1f23"


def draw(size: int, card_scale: float, full_bleed: bool) -> Image.Image:
    big = size * 4  # drawn large, then reduced: smooth edges without antialiasing support for shapes
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if full_bleed:
        pen.rectangle((0, 0, big, big), fill=GREEN)
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=GREEN)
    width, height = big * 0.53 * card_scale, big * 0.75 * card_scale
    left, top = (big - width) / 2, (big - height) / 2
    pen.rounded_rectangle((left, top, left + width, top + height), radius=big * 0.07 * card_scale,
                          fill=PAPER, outline=GOLD, width=max(2, int(big * 0.02 * card_scale)))
    font = ImageFont.truetype(FONT, int(big * 0.5 * card_scale))
    pen.text((big / 2, big / 2), "♠", font=font, fill=INK, anchor="mm")
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(512, 1.0, False).save(OUT / "icon-512.png", optimize=True)
    draw(192, 1.0, False).save(OUT / "icon-192.png", optimize=True)
    draw(512, 0.7, True).save(OUT / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
