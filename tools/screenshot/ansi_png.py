#!/usr/bin/env python3
"""Renders a terminal capture with colours (`tmux capture-pane -e -p`) to a PNG,
in DejaVu Sans Mono: the picture of a terminal editor, for a README.
Needs Debian's python3-pil. Usage: ansi_png.py CAPTURE.txt OUT.png"""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

BASE = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188),
        (17, 168, 205), (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
        (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]
FG, BG = (212, 212, 212), (30, 30, 30)


def color256(n: int):
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[n // 36], steps[(n // 6) % 6], steps[n % 6]
    v = 8 + 10 * (n - 232)
    return v, v, v


def cells(line: str):
    """(char, fg, bg, bold) for each character of a line with SGR codes."""
    fg, bg, bold, reverse = FG, BG, False, False
    out = []
    for token in re.split(r"(\x1b\[[0-9;]*m)", line):
        if token.startswith("\x1b["):
            codes = [int(c) if c else 0 for c in token[2:-1].split(";")]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    fg, bg, bold, reverse = FG, BG, False, False
                elif c == 1:
                    bold = True
                elif c == 22:
                    bold = False
                elif c == 7:
                    reverse = True
                elif c == 27:
                    reverse = False
                elif 30 <= c <= 37:
                    fg = BASE[c - 30]
                elif 90 <= c <= 97:
                    fg = BASE[c - 90 + 8]
                elif 40 <= c <= 47:
                    bg = BASE[c - 40]
                elif 100 <= c <= 107:
                    bg = BASE[c - 100 + 8]
                elif c == 39:
                    fg = FG
                elif c == 49:
                    bg = BG
                elif c in (38, 48) and i + 1 < len(codes):
                    if codes[i + 1] == 5 and i + 2 < len(codes):
                        rgb = color256(codes[i + 2])
                        i += 2
                    elif codes[i + 1] == 2 and i + 4 < len(codes):
                        rgb = tuple(codes[i + 2:i + 5])
                        i += 4
                    else:
                        rgb = FG if c == 38 else BG
                    if c == 38:
                        fg = rgb
                    else:
                        bg = rgb
                i += 1
        else:
            for ch in token:
                out.append((ch, bg if reverse else fg, fg if reverse else bg, bold))
    return out


def main() -> None:
    lines = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 15)
    bold = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf", 15)
    w, h = round(font.getlength("M")), 19
    rows = [cells(line) for line in lines]
    cols = max(len(r) for r in rows)
    image = Image.new("RGB", (cols * w + 16, len(rows) * h + 16), BG)
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(rows):
        for x, (ch, fg, bg, b) in enumerate(row):
            left, top = 8 + x * w, 8 + y * h
            if bg != BG:
                draw.rectangle([left, top, left + w, top + h], fill=bg)
            if ch != " ":
                draw.text((left, top + 1), ch, fill=fg, font=bold if b else font)
    image.save(sys.argv[2], optimize=True)


if __name__ == "__main__":
    main()
