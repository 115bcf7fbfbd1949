import { type BulkParentAccessResult, errorWords, formatAccessCode, namingClasses } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/activity-log';
import { recordActivity } from '../../lib/activity-log';
import { NotFoundError } from '../../lib/errors';
import { readCentreName } from '../centre';
import { readClassLabels } from '../classes';
import { generateAccessCode, hashAccessCode } from './access-codes';
import { findClassFamilies } from './bulk-repository';
import { writeFamilyAccess } from './family-access';
import { familyTexts } from './family-texts';

/**
 * Parent-app codes for a whole class at once (issue 28, item 6; ADR 047): one request, one
 * transaction, one activity row. Families that have a code keep it unless `regenerate` says to replace
 * it (their devices are signed out and told, as for one family). Codes are hashed before the
 * transaction opens; inside it a first code is an insert that does nothing on conflict, so two
 * requests at once give each family one code, and the second answers it as skipped.
 */
export async function issueClassAccess(
  ctx: AppContext,
  actor: Actor,
  className: string,
  regenerate: boolean,
): Promise<BulkParentAccessResult> {
  const [families, labelOf] = await Promise.all([findClassFamilies(ctx.db, className), readClassLabels(ctx.db)]);
  if (families.length === 0) {
    throw new NotFoundError(namingClasses(errorWords('parents.class_has_no_families', { class: className }), labelOf));
  }
  const wanted = families.filter((family) => regenerate || !family.has_code);
  const codes = new Map<string, { code: string; hash: string }>();
  for (const family of wanted) {
    const code = generateAccessCode();
    codes.set(family.phone, { code, hash: await hashAccessCode(code) });
  }
  const centre = await readCentreName(ctx.db);
  const result = await ctx.db.transaction(async (tx) => {
    const issued: BulkParentAccessResult['issued'] = [];
    const skipped: BulkParentAccessResult['skipped'] = [];
    let told = 0;
    for (const { has_code: _, ...family } of families) {
      const prepared = codes.get(family.phone);
      const written = prepared && (await writeFamilyAccess(tx, family.phone, prepared.hash, actor, regenerate));
      if (!prepared || !written) {
        skipped.push(family);
        continue;
      }
      told += written.told;
      const code = formatAccessCode(prepared.code);
      issued.push({
        ...family,
        code,
        replaced: !written.first,
        slip: familyTexts(family.language).slip({ centre, phone: family.phone, code }),
      });
    }
    await recordActivity(tx, actor, 'parents.access_bulk', 'parents.access_bulk', {
      class: className,
      issued: issued.filter((family) => !family.replaced).length,
      replaced: issued.filter((family) => family.replaced).length,
      skipped: skipped.length,
    });
    return { issued, skipped, told };
  });
  if (result.told > 0) ctx.push.wake();
  return {
    class_name: className,
    centre_name: centre,
    issued: result.issued,
    skipped: result.skipped,
    message: `Issued ${result.issued.length} access code(s) for ${labelOf(className)}; ${result.skipped.length} family(ies) already had one. Print the slips now: the codes cannot be shown again.`,
  };
}
