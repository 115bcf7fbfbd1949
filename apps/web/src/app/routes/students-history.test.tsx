import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, listOf, renderPage, student } from '../../testing';
import StudentsRoute from './students';

afterEach(() => vi.restoreAllMocks());

function WhereNow() {
  const location = useLocation();
  return <p>At {`${location.pathname}${location.search}`}</p>;
}

function app() {
  return (
    <Routes>
      <Route path="/students" element={<StudentsRoute />} />
      <Route path="/audit" element={<WhereNow />} />
    </Routes>
  );
}

describe("a student's History", () => {
  it("opens the Audit screen on that student's record, for admins", async () => {
    const user = userEvent.setup({ delay: null });
    fakeApi({ 'GET /students/': () => [200, listOf(2, student)] });
    renderPage(app(), { signedInAs: 'admin', path: '/students' });
    await screen.findByText('Student 2');
    await user.click(screen.getByRole('button', { name: 'History of Student 2' }));
    expect(await screen.findByText('At /audit?entity=students&record_id=2')).toBeInTheDocument();
  });

  it('is not offered to teachers, who cannot read the audit log', async () => {
    fakeApi({ 'GET /students/': () => [200, listOf(2, student)] });
    renderPage(app(), { signedInAs: 'teacher', path: '/students' });
    await screen.findByText('Student 2');
    expect(screen.queryByRole('button', { name: /^History of/ })).not.toBeInTheDocument();
  });
});
