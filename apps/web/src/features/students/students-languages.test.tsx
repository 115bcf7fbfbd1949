import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Role, Student } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../../i18n';
import { type FakeRoute, fakeApi, json, listOf, renderPage, student } from '../../testing';
import StudentsPage from './students-page';

function openStudents(role: Role, students: Student[], routes: Record<string, FakeRoute> = {}) {
  fakeApi({ 'GET /students/': () => [200, students], ...routes });
  renderPage(<StudentsPage />, { signedInAs: role });
}

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

  it('says in Hindi, on the consent switch, that only the parent turns WhatsApp on again after their STOP', async () => {
    await showLanguage('hi');
    const user = userEvent.setup({ delay: null });
    openStudents('teacher', listOf(1, student), {
      'PUT /students/1': () =>
        json(
          {
            detail:
              'parent_whatsapp_opt_in: cannot be turned on by the centre: the parent turned WhatsApp messages off in the parent app. Only the parent can turn them on again, by replying START on WhatsApp or in the parent app',
            code: 'validation.parent_opted_out',
            params: { field: 'parent_whatsapp_opt_in', how: 'parent_app' },
          },
          409,
        ),
    });
    await user.click(await screen.findByRole('button', { name: 'Student 1 को बदलें' }));
    const dialog = screen.getByRole('dialog', { name: 'विद्यार्थी की जानकारी बदलें' });
    const consent = within(dialog).getByRole('switch', { name: 'अभिभावक व्हाट्सऐप संदेशों के लिए सहमत हैं' });
    await user.click(consent);
    await user.click(within(dialog).getByRole('button', { name: 'सहेजें' }));
    const words =
      'केंद्र इसे चालू नहीं कर सकता: अभिभावक ने अभिभावक ऐप में व्हाट्सऐप संदेश बंद किए हैं। इन्हें फिर से केवल अभिभावक ही चालू कर सकते हैं, व्हाट्सऐप पर START लिखकर भेजकर या अभिभावक ऐप में';
    await waitFor(() => expect(consent).toHaveAccessibleDescription(expect.stringContaining(words)));
    expect(consent).toBeInvalid();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says in Marathi, above the fields, that only an admin moves a student out of another teacher's class", async () => {
    await showLanguage('mr');
    const user = userEvent.setup({ delay: null });
    const params = { from: '9', to: '7', count: 1, classes: '7' };
    openStudents(
      'teacher',
      listOf(1, (id) => student(id, { class_name: '9' })),
      {
        'PUT /students/1': () =>
          json(
            {
              detail:
                'Only an admin can move this student from Class 9 to Class 7: you mark only Class 7. Ask an admin to change the class.',
              code: 'student.class_change_not_yours',
              params,
            },
            403,
          ),
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Student 1 संपादित करा' }));
    const dialog = screen.getByRole('dialog', { name: 'विद्यार्थी संपादित करा' });
    await user.click(within(dialog).getByRole('combobox', { name: /इयत्ता/ }));
    await user.click(screen.getByRole('option', { name: '7' }));
    await user.click(within(dialog).getByRole('button', { name: 'जतन करा' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'या विद्यार्थ्याला इयत्ता 9 मधून इयत्ता 7 मध्ये फक्त ॲडमिनच हलवू शकतात: आपण फक्त इयत्ता 7 ची हजेरी नोंदवता. इयत्ता बदलण्यासाठी एखाद्या ॲडमिनला सांगा.',
    );
  });
});
