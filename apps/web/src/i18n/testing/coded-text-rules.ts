/**
 * The rules for texts the server sends by code (its errors, the activity feed): each language has a
 * text for every code and no other, with the same placeholders, no placeholder inside a branch, filled
 * without a brace left, and each plural with every form the language needs.
 */
import { expect, it } from 'vitest';

export interface CodedTexts {
  english: Readonly<Record<string, string>>;
  params: (text: string) => string[];
  branches: (text: string) => string[];
  /** The text filled with a made-up value for each of `params`. */
  fill: (text: string, params: Record<string, number>) => string;
}

export function itKeepsTheCodes(language: string, texts: Readonly<Record<string, string>>, rules: CodedTexts): void {
  const { english } = rules;

  it('has a text for every code, and none the catalogue does not have', () => {
    expect(
      Object.keys(english).filter((code) => !(code in texts)),
      'missing',
    ).toEqual([]);
    expect(
      Object.keys(texts).filter((code) => !(code in english)),
      'not in the catalogue',
    ).toEqual([]);
    expect(
      Object.entries(texts).filter(([, text]) => text.trim() === ''),
      'empty',
    ).toEqual([]);
  });

  it('keeps every placeholder, adds none, and fills without a brace left', () => {
    for (const [code, text] of Object.entries(texts)) {
      const source = english[code] ?? '';
      expect(rules.params(text).sort(), code).toEqual(rules.params(source).sort());
      expect(
        rules.branches(text).filter((branch) => /[{}]/.test(branch)),
        code,
      ).toEqual([]);
      const params = Object.fromEntries(rules.params(source).map((name) => [name, 2]));
      expect(rules.fill(text, params), code).not.toMatch(/[{}]/);
    }
  });

  it('gives each plural every form the language needs', () => {
    const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const [code, text] of Object.entries(texts)) {
      for (const [, name] of text.matchAll(/\{\s*(\w+)\s*,\s*plural\s*,/g)) {
        const piece = text.slice(text.indexOf(`{${name}`));
        for (const form of forms) expect(piece, `${code}: ${form}`).toMatch(new RegExp(`\\b${form}\\s*\\{`));
      }
    }
  });
}
