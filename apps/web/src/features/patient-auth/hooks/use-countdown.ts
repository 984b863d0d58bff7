import { useEffect, useState } from 'react';

const tickMs = 250;

/** Whole seconds left until `until` (epoch ms), kept current while it runs; 0 once it has passed. */
export function useCountdown(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until === null) return;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      if (current >= until) window.clearInterval(timer);
    };
    // At once for a new deadline, then often enough that the seconds shown never lag.
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, tickMs);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [until]);

  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}
