"""The word list's score scale."""

from __future__ import annotations

__all__ = ["zipf_to_score"]

# --------------------------------------------------------------------------
# Scores


def zipf_to_score(zipf: float) -> int:
    """Map a wordfreq Zipf frequency to the word list's 0-100 score.

    Parameters
    ----------
    zipf : float
        ``wordfreq.zipf_frequency`` of the answer (0 for unknown words, about
        7.7 for "the").

    Returns
    -------
    int
        ``round(50 + 12 * (zipf - 3.5))`` clamped to 0..100: an ordinary
        word (Zipf 3.5, e.g. "newt" 3.2, "grip" 4.1) scores about 50, common
        words (Zipf 5-6) 68-80, rare ones (Zipf 1.5-2.7) 26-40.

    Notes
    -----
    O(1).  The one place the scale is defined; penalties for junk are
    subtracted afterwards.

    Examples
    --------
    >>> zipf_to_score(3.5), zipf_to_score(6.0), zipf_to_score(2.0)
    (50, 80, 32)
    """
    return max(0, min(100, round(50 + 12 * (zipf - 3.5))))

