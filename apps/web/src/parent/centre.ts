import type { PublicCentre } from '@tuitiondesk/contract';
import { useEffect, useState } from 'react';
import { API_BASE } from './api';
import { setCentreTimeZone } from './centre-clock';

const KEPT = 'parentCentre';

function kept(): PublicCentre | undefined {
  try {
    const text = localStorage.getItem(KEPT);
    return text ? (JSON.parse(text) as PublicCentre) : undefined;
  } catch {
    return undefined;
  }
}

// The centre's zone from the last answer kept, at once, before any screen computes "today".
setCentreTimeZone(kept()?.time_zone);

/**
 * The centre's name and logo (the public `GET /centre`, ADR 042), for the sign-in page and the header:
 * the last one known at once (offline too), then the server's. Undefined until one is known. Its time
 * zone sets the app's clock (`centre-clock.ts`).
 */
export function useCentreBrand(): PublicCentre | undefined {
  const [centre, setCentre] = useState<PublicCentre | undefined>(kept);
  useEffect(() => {
    const controller = new AbortController();
    fetch(`${API_BASE}/centre`, { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) return;
        const answer = (await response.json()) as PublicCentre;
        setCentreTimeZone(answer.time_zone);
        setCentre(answer);
        try {
          localStorage.setItem(KEPT, JSON.stringify(answer));
        } catch {
          // Kept only for this visit.
        }
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return centre;
}
