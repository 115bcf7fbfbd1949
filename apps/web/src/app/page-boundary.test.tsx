import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleBoundary, PageBoundary } from './page-boundary';
import { retryableLazy } from './retryable-lazy';

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/history-page-Ab12.js');

/** A page's code, fetched by `load`: the first `failures` fetches fail as a missing chunk does. */
function pageCode(text: string, failures: number) {
  let calls = 0;
  const load = vi.fn(async () => {
    calls += 1;
    if (calls <= failures) throw chunkError();
    return { default: () => <p>{text}</p> };
  });
  return { Component: retryableLazy(load).Component, load };
}

/** A console in miniature: a menu that stays, and the page in the boundary, as the shell has it. */
function Console({ pages, onChunkError }: { pages: Record<string, () => React.ReactNode>; onChunkError: () => void }) {
  const location = useLocation();
  return (
    <div>
      <nav aria-label="Main menu">
        {Object.keys(pages).map((path) => (
          <Link key={path} to={path}>
            {path}
          </Link>
        ))}
      </nav>
      <main>
        <PageBoundary resetKey={location.pathname} onChunkError={onChunkError}>
          <Suspense fallback={<p>Loading</p>}>
            <Routes>
              {Object.entries(pages).map(([path, element]) => (
                <Route key={path} path={path} element={element()} />
              ))}
            </Routes>
          </Suspense>
        </PageBoundary>
      </main>
    </div>
  );
}

function renderConsole(pages: Record<string, () => React.ReactNode>, start: string) {
  const onChunkError = vi.fn();
  render(
    <MemoryRouter initialEntries={[start]}>
      <Console pages={pages} onChunkError={onChunkError} />
    </MemoryRouter>,
  );
  return { onChunkError };
}

afterEach(() => vi.restoreAllMocks());

describe('a page whose code cannot be fetched', () => {
  it('says so inside the console, the menu still there; Retry fetches the code again and shows the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const history = pageCode('History page', 1);
    const { onChunkError } = renderConsole({ '/history': () => <history.Component /> }, '/history');
    expect(await screen.findByText('This page could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Check the connection and try again.')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    // A missing chunk may mean a new version: the console checks (and reloads once if so).
    expect(onChunkError).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('History page')).toBeInTheDocument();
    expect(history.load).toHaveBeenCalledTimes(2);
    expect(screen.queryByText('This page could not be loaded.')).not.toBeInTheDocument();
  });

  it('clears when another menu item is chosen, and that page fetches its code anew when opened again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const history = pageCode('History page', 1);
    const students = pageCode('Students page', 0);
    renderConsole({ '/history': () => <history.Component />, '/students': () => <students.Component /> }, '/history');
    expect(await screen.findByText('This page could not be loaded.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: '/students' }));
    expect(await screen.findByText('Students page')).toBeInTheDocument();
    expect(screen.queryByText('This page could not be loaded.')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: '/history' }));
    expect(await screen.findByText('History page')).toBeInTheDocument();
    expect(history.load).toHaveBeenCalledTimes(2);
  });

  it('fetches code that loaded once only once', async () => {
    const students = pageCode('Students page', 0);
    const other = pageCode('Other page', 0);
    renderConsole({ '/students': () => <students.Component />, '/other': () => <other.Component /> }, '/students');
    await screen.findByText('Students page');
    await userEvent.click(screen.getByRole('link', { name: '/other' }));
    await screen.findByText('Other page');
    await userEvent.click(screen.getByRole('link', { name: '/students' }));
    await screen.findByText('Students page');
    expect(students.load).toHaveBeenCalledTimes(1);
  });
});

describe('a page that fails while showing', () => {
  it('says something went wrong on it, inside the console, and Retry shows it anew', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let broken = true;
    function Fragile() {
      if (broken) throw new TypeError("Cannot read properties of undefined (reading 'map')");
      return <p>Fragile page</p>;
    }
    const { onChunkError } = renderConsole({ '/fragile': () => <Fragile /> }, '/fragile');
    expect(await screen.findByText('Something went wrong on this page.')).toBeInTheDocument();
    expect(screen.getByText('Try again, or choose another page from the menu.')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(onChunkError).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalled();
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Fragile page')).toBeInTheDocument();
  });
});

describe('the whole console', () => {
  it('shows a plain message with Retry when its own code (sign-in, the shell) cannot be fetched', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const shell = pageCode('The shell', 1);
    const onChunkError = vi.fn();
    render(
      <ConsoleBoundary onChunkError={onChunkError}>
        <Suspense fallback={<p>Loading</p>}>
          <shell.Component />
        </Suspense>
      </ConsoleBoundary>,
    );
    expect(await screen.findByText('The console could not be loaded.')).toBeInTheDocument();
    expect(onChunkError).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The shell')).toBeInTheDocument();
  });
});
