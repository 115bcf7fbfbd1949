import { screen, within } from '@testing-library/react';
import type { Role, Student } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showLanguage } from '../../i18n';
import { fakeApi, listOf, renderPage, student } from '../../testing';
import StudentsPage from './students-page';

function openStudents(role: Role, students: Student[]) {
  fakeApi({ 'GET /students/': () => [200, students] });
  renderPage(<StudentsPage />, { signedInAs: role });
}

vi.setConfig({ testTimeout: 20_000 });
afterEach(async () => {
  await showLanguage('en');
});

describe('the Students screen in another language', () => {
  it('speaks Hindi: the count, Add, the columns, the class and the row actions', async () => {
    await showLanguage('hi');
    openStudents('admin', listOf(3, student));
    expect(await screen.findByText('Student 1')).toBeInTheDocument();
    expect(screen.getByText('3 विद्यार्थी')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'विद्यार्थी जोड़ें' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'विद्यार्थी' })).toBeInTheDocument();
    for (const header of ['विद्यार्थी आईडी', 'कक्षा', 'अभिभावक संपर्क', 'कार्रवाई']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = screen.getByRole('row', { name: /Student 2/ });
    expect(within(row).getByText('कक्षा 7')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Student 2 को बदलें' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'विद्यार्थी खोजें' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'वर्तमान विद्यार्थी' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'अगले पेज पर जाएँ' })).toBeInTheDocument();
  });

  it('speaks Urdu, right to left, with its own empty list', async () => {
    await showLanguage('ur');
    openStudents('teacher', []);
    expect(await screen.findByText('ابھی کوئی طالب علم نہیں')).toBeInTheDocument();
    expect(screen.getByText('0 طلبہ')).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });
});
