import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** Puts text in a field in one go (typing key by key is slow, and is not what these tests are about). */
export async function fill(field: HTMLElement, text: string): Promise<void> {
  await userEvent.click(field);
  await userEvent.paste(text);
}

/** The card that shows `label` (a title or a figure's label). */
export function card(label: string): HTMLElement {
  const element = screen.getByText(label).closest('.MuiCard-root');
  if (!(element instanceof HTMLElement)) throw new Error(`no card ${label}`);
  return element;
}

/** The texts of the options an open select or menu offers, in order. */
export function optionTexts(): (string | null)[] {
  return screen.getAllByRole('option').map((option) => option.textContent);
}
