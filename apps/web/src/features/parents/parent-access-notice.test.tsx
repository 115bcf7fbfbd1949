/**
 * The notice shown with a new access code: the server's English as written in English; in another
 * language the console's own words, for a family's first code or for a code that replaced one.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ParentAccessIssued, ParentAccessStatus } from '@tuitiondesk/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, showLanguage } from '../../i18n';
import { fakeApi, renderPage } from '../../testing';
import { ParentAccessDialog } from './parent-access-dialog';

afterEach(async () => {
  vi.restoreAllMocks();
  await showLanguage('en');
});

const FIRST = 'Access code issued. Give it to the parent now: it cannot be shown again.';
const NEW =
  "New access code issued. The parent's devices have been signed out and told. Give them the new code: it cannot be shown again.";

const status = (has_code: boolean): ParentAccessStatus => ({
  phone: '+919800011111',
  parent_name: 'Meena Verma',
  children: [{ id: 7, unique_id: 'STU0007', full_name: 'Asha Verma', class_name: '7' }],
  has_code,
  issued_at: has_code ? '2026-11-20T10:15:00Z' : null,
  issued_by: has_code ? 'Administrator' : null,
  last_sign_in_at: null,
  devices_with_notifications: 0,
  can_replace_code: true,
});

async function issue(hadCode: boolean) {
  const answer: ParentAccessIssued = {
    ...status(true),
    code: 'K7QM-2XHR',
    message: hadCode ? NEW : FIRST,
    share_text: 'Share',
  };
  fakeApi({
    'GET /students/7/parent-access': () => [200, status(hadCode)],
    'POST /students/7/parent-access': () => [201, answer],
  });
  vi.spyOn(window, 'confirm').mockReturnValue(true);
  renderPage(<ParentAccessDialog student={{ id: 7, full_name: 'Asha Verma' }} onClose={() => undefined} />);
  // The status first: until it is there the button waits, disabled.
  await screen.findByText('Meena Verma');
  const name = i18n.t(hadCode ? 'regenerate' : 'issue', { ns: 'parents' });
  await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name }));
  expect(await screen.findByTestId('access-code')).toHaveTextContent('K7QM-2XHR');
}

describe('the notice with a new access code', () => {
  it("is the server's own words in English", async () => {
    await issue(false);
    expect(screen.getByText(FIRST)).toBeInTheDocument();
  });

  it("in Hindi says a family's first code is to be handed over now", async () => {
    await showLanguage('hi');
    await issue(false);
    expect(
      screen.getByText('एक्सेस कोड जारी किया गया। इसे अभी अभिभावक को दें: यह दोबारा नहीं दिखाया जा सकता।'),
    ).toBeInTheDocument();
    expect(screen.queryByText(FIRST)).not.toBeInTheDocument();
  });

  it("in Hindi says a replacing code signed the family's devices out", async () => {
    await showLanguage('hi');
    await issue(true);
    expect(screen.getByText(/^नया एक्सेस कोड जारी किया गया। अभिभावक के डिवाइस साइन आउट/)).toBeInTheDocument();
    expect(screen.queryByText(NEW)).not.toBeInTheDocument();
  });
});
