"""Reading one text window by window: rolling attribution and its segments.

* :mod:`hclib.windows.rolling`: :func:`rolling`, every window of a text attributed;
* :mod:`hclib.windows.segments`: the change-point rule (a penalised Viterbi path);
* :mod:`hclib.windows.result`: :class:`Rolling`, what :func:`rolling` returns.
"""

from .result import Rolling
from .rolling import rolling, rolling_from, window_spans
from .segments import SWITCH_COST, best_path, no_switch_cost

__all__ = ["SWITCH_COST", "Rolling", "best_path", "no_switch_cost", "rolling", "rolling_from",
           "window_spans"]
