# Whether a shortened kernel label stands for its full name, written from
# doc/commands.md's rule and sharing no code with profdb: the label's pieces
# around each "..." appear in the name in order, the name taken whole or
# without "void " and namespace qualifiers.  Used by report_md_labels and
# report_html_labels.
import re


def norm(s):
    s = s[5:] if s.startswith("void ") else s
    return re.sub(r"(\(anonymous namespace\)::|[A-Za-z0-9_]+::)", "", s)


def pieces_in(label, k):
    pos = 0
    for piece in re.split(r"\.{3,}", label):
        at = k.find(piece, pos)
        if at < 0:
            return False
        pos = at + len(piece)
    return True
