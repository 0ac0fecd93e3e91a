r"""Symbol commands and the characters they print (``\times`` → ×, ``\rightarrow`` → →).

Captions and findings are shown to people as text; dropping a symbol command
turns "$3 \times 3$ kernels" into "3 3 kernels" and "$A \to B$" into "A B".
`print_symbols` writes the character a command prints instead; a command
followed by a letter (``\tof``) is another command and is left alone.
"""

from __future__ import annotations

import re

SYMBOLS = {
    "times": "×", "texttimes": "×", "cdot": "·", "pm": "±", "mp": "∓", "div": "÷",
    "to": "→", "rightarrow": "→", "longrightarrow": "→", "textrightarrow": "→",
    "gets": "←", "leftarrow": "←", "longleftarrow": "←", "textleftarrow": "←",
    "Rightarrow": "⇒", "Longrightarrow": "⇒", "implies": "⇒", "Leftarrow": "⇐",
    "leftrightarrow": "↔", "Leftrightarrow": "⇔", "iff": "⇔", "mapsto": "↦",
    "uparrow": "↑", "downarrow": "↓", "textuparrow": "↑", "textdownarrow": "↓",
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
    "sim": "∼", "simeq": "≃", "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫",
    "infty": "∞", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "cup": "∪",
    "cap": "∩", "forall": "∀", "exists": "∃", "partial": "∂", "nabla": "∇", "sum": "∑",
    "prod": "∏", "circ": "∘", "degree": "°", "textdegree": "°", "checkmark": "✓",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "chi": "χ",
    "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ",
    "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip
#: Every character a symbol command prints (kept where other marks are dropped).
CHARACTERS = "".join(sorted(set(SYMBOLS.values())))
_SYMBOL = re.compile(
    r"\\(" + "|".join(sorted(SYMBOLS, key=len, reverse=True)) + r")(?![A-Za-z])(?:\{\})?"
)


def print_symbols(latex: str) -> str:
    """``latex`` with every symbol command of `SYMBOLS` replaced by its character (the
    spaces around it as written; a space ending the command name is dropped)."""
    return _SYMBOL.sub(lambda m: SYMBOLS[m.group(1)], latex)
