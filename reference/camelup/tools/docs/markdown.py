"""camelup's documents as HTML: CommonMark with pipe tables, by markdown-it-py.

Three things are camelup's own on top of the parser. Headings get the anchors GitHub gives
them, so that a link that works on GitHub works on the site too. Every link and image target is
collected as written (the site checks that each leads somewhere) and mapped to its site URL by
the caller's ``rewrite``. Raw HTML is not passed through: an HTML comment is dropped (the
generated pages mark themselves with one), a folded section (``<details>``, ``<summary>`` with
plain text, ``</details>``, as GitHub also shows them) is kept, and any other tag is shown as
the text it is.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

import attrs
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

Rewrite = Callable[[str], str]
TitleOf = Callable[[str], str | None]  # a link target -> the title its link should carry
_COMMENT = re.compile(r"\s*<!--.*?-->\s*", re.S)
_FOLD_TAG = r"(?:</?details>|<summary>[^<>]*</summary>)"
_FOLD = re.compile(rf"\s*{_FOLD_TAG}(?:\s*{_FOLD_TAG})*\s*")


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


def _raw_html_as_text(
    renderer: object, tokens: Sequence[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    content = tokens[index].content
    if _COMMENT.fullmatch(content):
        return ""
    if _FOLD.fullmatch(content):
        return content
    return html.escape(content, quote=False)


def _parser() -> MarkdownIt:
    # html=True only so that comments are recognised as such (and dropped) instead of being
    # printed; every other tag is escaped by the render rule.
    parser = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    parser.add_render_rule("html_block", _raw_html_as_text)
    parser.add_render_rule("html_inline", _raw_html_as_text)
    return parser


_PARSER = _parser()


def _plain(inline: Token) -> str:
    """The text of a heading's inline content without its markup."""
    parts = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "image":
            parts.append(_plain(child))
        elif child.type == "softbreak":
            parts.append(" ")
    return "".join(parts)


def to_html(
    markdown: str,
    rewrite: Rewrite = lambda target: target,
    title_of: TitleOf = lambda target: None,
) -> Page:
    """Convert ``markdown``; ``rewrite`` maps each link or image target to its site URL, and
    ``title_of`` gives a link without a title of its own the one its target should carry."""
    tokens = _PARSER.parse(markdown)
    anchors: list[str] = []
    targets: list[str] = []
    title = ""
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            text = _plain(tokens[index + 1])
            anchor = base = slug(text)
            count = 1
            while anchor in anchors:
                anchor = f"{base}-{count}"
                count += 1
            anchors.append(anchor)
            token.attrSet("id", anchor)
            title = title or text.strip()
        for child in token.children or ():
            attribute = {"link_open": "href", "image": "src"}.get(child.type)
            if attribute is None:
                continue
            target = str(child.attrGet(attribute))
            targets.append(target)
            child.attrSet(attribute, rewrite(target))
            link_title = title_of(target) if child.type == "link_open" else None
            if link_title and not child.attrGet("title"):
                child.attrSet("title", link_title)
    body = _PARSER.renderer.render(tokens, _PARSER.options, {})
    return Page(body, title, tuple(anchors), tuple(targets))
