import type { ParentLanguage, ParentLanguageChoice } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { readFamily, setFamilyLanguage } from './consent';

/** The language the family reads the centre's messages in; English for a family without one on record. */
export async function getFamilyLanguage(ctx: AppContext, phone: string): Promise<ParentLanguageChoice> {
  const family = await readFamily(ctx.db, phone);
  return { language: family?.language ?? 'en' };
}

/** The family's own choice from the parent app: set on every child's record with that phone. */
export async function setParentLanguage(
  ctx: AppContext,
  phone: string,
  language: ParentLanguage,
): Promise<ParentLanguageChoice> {
  await ctx.db.transaction((tx) => setFamilyLanguage(tx, phone, language));
  return getFamilyLanguage(ctx, phone);
}
