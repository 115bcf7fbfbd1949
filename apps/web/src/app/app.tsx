import { useEffect, useState } from 'react';

type Health = { status: string; database: string; version: string };

/** Until the console lands (issue 3): shows that the server and its database answer, and where the API is. */
export function App() {
  const [health, setHealth] = useState<Health | 'unreachable' | undefined>();
  useEffect(() => {
    fetch('/api/v1/health')
      .then((response) => response.json() as Promise<Health>)
      .then(setHealth)
      .catch(() => setHealth('unreachable'));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>TuitionDesk</h1>
      <p>The staff console of your tuition centre. The console screens are being built; the API is ready.</p>
      <p>
        Server:{' '}
        <strong>
          {health === undefined
            ? 'checking…'
            : health === 'unreachable'
              ? 'unreachable'
              : `${health.status}, database ${health.database}`}
        </strong>
      </p>
      <p>
        API reference: <a href="/api/docs">/api/docs</a> · OpenAPI document:{' '}
        <a href="/api/openapi.json">/api/openapi.json</a>
      </p>
    </main>
  );
}
