"""Retry vocabulary shared by the client base class and its providers."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime

from memlane.errors import ProviderError

__all__ = ["RetryableError", "backoff_delay", "parse_retry_after"]


class RetryableError(ProviderError):
    """A 5xx answer or a dropped connection: worth another attempt.

    Internal signal from a provider's ``_complete`` to :class:`LLMClient`; once the retries are
    spent it surfaces as a plain :class:`~memlane.errors.ProviderError`.
    """


def backoff_delay(attempt: int, base: float, cap: float, rng: random.Random) -> float:
    """Exponential backoff with full jitter: uniform in ``[0, min(cap, base * 2**attempt)]``.

    Full jitter spreads the retries of many clients hit by the same outage.
    """
    return rng.uniform(0.0, min(cap, base * (2.0**attempt)))


def parse_retry_after(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """Seconds to wait according to ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date).

    Returns ``None`` when neither header is present or parseable. Never raises.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)
