"""A tiny Markdown-to-HTML converter for the subset that camelup's own documents use.

Blocks: ATX headings, paragraphs, fenced code blocks, pipe tables, flat bullet (``-``/``*``)
and numbered lists whose items may continue on indented lines, and HTML comments (dropped).
Inline: code spans, links, images, ``**strong**`` and ``*emphasis*``, and backslash escapes.
Everything else is text, escaped. Headings get the anchors GitHub gives them, so that a link
that works on GitHub works on the site too. A page needs no more, and a converter this small
can be read in one sitting, which a dependency for a static folder of HTML would not be.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import attrs

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)\s*$")
_BULLET = re.compile(r"^[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\d+[.)]\s+(.*)$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_INLINE = re.compile(
    r"(?P<code>`+)(?P<code_text>.+?)(?P=code)"
    r"|!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)\)"
    r"|\[(?P<text>(?:[^\[\]]|\[[^\]]*\])+)\]\((?P<href>[^)\s]+)\)"
    r"|\*\*(?P<strong>.+?)\*\*"
    r"|(?<![\w*])\*(?P<em>[^*\s](?:[^*]*[^*\s])?)\*(?![\w*])"
    r"|\\(?P<escaped>[\\`*_{}\[\]()#+\-.!|<>])"
)

Rewrite = Callable[[str], str]


@attrs.frozen
class Page:
    """A converted document: its body HTML, its first heading as text, its anchors, and every
    link and image target as written in the Markdown (before rewriting)."""

    body: str
    title: str
    anchors: tuple[str, ...]
    targets: tuple[str, ...]


def slug(text: str) -> str:
    """GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to '-'."""
    lowered = text.strip().lower()
    return re.sub(r"[^\w\- ]", "", lowered).replace(" ", "-")


def plain(markdown: str) -> str:
    """The text of inline Markdown without its markup (what a heading's anchor is made of)."""

    def text_of(match: re.Match[str]) -> str:
        if match["code"]:
            return match["code_text"]
        if match["src"] is not None:
            return match["alt"]
        if match["href"] is not None:
            return plain(match["text"])
        if match["strong"] is not None:
            return plain(match["strong"])
        if match["em"] is not None:
            return plain(match["em"])
        return match["escaped"]

    return _INLINE.sub(text_of, markdown)


class _Converter:
    def __init__(self, rewrite: Rewrite) -> None:
        self.rewrite = rewrite
        self.anchors: list[str] = []
        self.targets: list[str] = []
        self.title = ""
        self.out: list[str] = []

    def inline(self, text: str) -> str:
        parts: list[str] = []
        position = 0
        for match in _INLINE.finditer(text):
            parts.append(html.escape(text[position : match.start()], quote=False))
            position = match.end()
            if match["code"]:
                parts.append(f"<code>{html.escape(match['code_text'].strip(), quote=False)}</code>")
            elif match["src"] is not None:
                self.targets.append(match["src"])
                src = html.escape(self.rewrite(match["src"]))
                parts.append(f'<img src="{src}" alt="{html.escape(match["alt"])}">')
            elif match["href"] is not None:
                self.targets.append(match["href"])
                href = html.escape(self.rewrite(match["href"]))
                parts.append(f'<a href="{href}">{self.inline(match["text"])}</a>')
            elif match["strong"] is not None:
                parts.append(f"<strong>{self.inline(match['strong'])}</strong>")
            elif match["em"] is not None:
                parts.append(f"<em>{self.inline(match['em'])}</em>")
            else:
                parts.append(html.escape(match["escaped"], quote=False))
        parts.append(html.escape(text[position:], quote=False))
        return "".join(parts)

    def heading(self, level: int, text: str) -> None:
        anchor = base = slug(plain(text))
        count = 1
        while anchor in self.anchors:
            anchor = f"{base}-{count}"
            count += 1
        self.anchors.append(anchor)
        if not self.title:
            self.title = plain(text)
        self.out.append(f'<h{level} id="{html.escape(anchor)}">{self.inline(text)}</h{level}>')

    def table(self, rows: list[str]) -> None:
        def cells(row: str) -> list[str]:
            row = row.strip().removeprefix("|")
            row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
            return [c.strip() for c in re.split(r"(?<!\\)\|", row)]

        head, body = cells(rows[0]), [cells(r) for r in rows[2:]]
        aligns = ["right" if c.strip().endswith(":") else "" for c in cells(rows[1])]

        def cell(tag: str, text: str, index: int) -> str:
            align = aligns[index] if index < len(aligns) else ""
            style = f' style="text-align:{align}"' if align else ""
            return f"<{tag}{style}>{self.inline(text)}</{tag}>"

        self.out.append("<table>")
        self.out.append("<thead><tr>" + "".join(cell("th", c, i) for i, c in enumerate(head)))
        self.out.append("</tr></thead><tbody>")
        for row in body:
            self.out.append("<tr>" + "".join(cell("td", c, i) for i, c in enumerate(row)) + "</tr>")
        self.out.append("</tbody></table>")

    def convert(self, markdown: str) -> None:
        lines = re.sub(r"<!--.*?-->", "", markdown, flags=re.S).splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            stripped = line.strip()
            if not stripped:
                index += 1
                continue
            if fence := _FENCE.match(stripped):
                end = index + 1
                while end < len(lines) and not lines[end].strip().startswith(fence[1]):
                    end += 1
                language = f' class="language-{fence[2]}"' if fence[2] else ""
                code = html.escape("\n".join(lines[index + 1 : end]), quote=False)
                self.out.append(f"<pre><code{language}>{code}</code></pre>")
                index = end + 1
                continue
            if heading := _HEADING.match(stripped):
                self.heading(len(heading[1]), heading[2])
                index += 1
                continue
            is_table = stripped.startswith("|") and index + 1 < len(lines)
            if is_table and _TABLE_RULE.match(lines[index + 1].strip()):
                end = index
                while end < len(lines) and lines[end].strip().startswith("|"):
                    end += 1
                self.table(lines[index:end])
                index = end
                continue
            if _BULLET.match(stripped) or _NUMBERED.match(stripped):
                index = self.list_block(lines, index)
                continue
            end = index
            paragraph: list[str] = []
            while end < len(lines) and lines[end].strip() and not self.starts_block(lines, end):
                paragraph.append(lines[end].strip())
                end += 1
            self.out.append(f"<p>{self.inline(' '.join(paragraph))}</p>")
            index = end

    @staticmethod
    def starts_block(lines: list[str], index: int) -> bool:
        stripped = lines[index].strip()
        return bool(
            _FENCE.match(stripped)
            or _HEADING.match(stripped)
            or _BULLET.match(stripped)
            or _NUMBERED.match(stripped)
            or (
                stripped.startswith("|")
                and index + 1 < len(lines)
                and _TABLE_RULE.match(lines[index + 1].strip())
            )
        )

    def list_block(self, lines: list[str], index: int) -> int:
        numbered = bool(_NUMBERED.match(lines[index].strip()))
        marker = _NUMBERED if numbered else _BULLET
        items: list[list[str]] = []
        while index < len(lines):
            line = lines[index]
            match = marker.match(line.strip()) if not line.startswith((" ", "\t")) else None
            if match:
                items.append([match[1]])
            elif line.strip() and line.startswith((" ", "\t")) and items:
                items[-1].append(line.strip())  # an indented line continues the item
            else:
                break
            index += 1
        tag = "ol" if numbered else "ul"
        self.out.append(f"<{tag}>")
        self.out += [f"<li>{self.inline(' '.join(item))}</li>" for item in items]
        self.out.append(f"</{tag}>")
        return index


def to_html(markdown: str, rewrite: Rewrite = lambda target: target) -> Page:
    """Convert ``markdown``; ``rewrite`` maps each link or image target to its site URL."""
    converter = _Converter(rewrite)
    converter.convert(markdown)
    return Page(
        "\n".join(converter.out) + "\n",
        converter.title,
        tuple(converter.anchors),
        tuple(converter.targets),
    )
