import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailAddress, emailPieces } from './email-address';

describe('a teacher email on the list', () => {
  it('may wrap only after the @ and before each dot', () => {
    expect(emailPieces('asha.rao@example.org')).toEqual(['asha', '.rao@', 'example', '.org']);
    expect(emailPieces('ravi@school.co.in')).toEqual(['ravi@', 'school', '.co', '.in']);
    expect(emailPieces('plainname')).toEqual(['plainname']);
  });

  it('shows the whole address as one text, with a break chance only between the pieces', () => {
    const { container } = render(<EmailAddress email="meera.krishnamurthy@tuition-centre.example.org" />);
    const element = container.querySelector('[data-email]') as HTMLElement;
    expect(element.textContent).toBe('meera.krishnamurthy@tuition-centre.example.org');
    expect(element.querySelectorAll('wbr')).toHaveLength(4);
    // Each piece on one line, hyphens included ("tuition-" at a line's end would read as hyphenation).
    const pieces = [...element.querySelectorAll('span')];
    expect(pieces.map((piece) => piece.textContent)).toEqual([
      'meera',
      '.krishnamurthy@',
      'tuition-centre',
      '.example',
      '.org',
    ]);
    expect(pieces.every((piece) => piece.style.whiteSpace === 'nowrap')).toBe(true);
  });
});
