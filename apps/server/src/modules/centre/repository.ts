import type { CentreLogoType } from '@tuitiondesk/contract';
import type { Queryable } from '../../db/database';

export interface StoredLogo {
  content_type: CentreLogoType;
  image_base64: string;
  sha256: string;
}

/** The logo's type and hash (what its address is named by), without the picture. */
export async function readLogoHash(db: Queryable): Promise<string | undefined> {
  const rows = await db.queryCached<{ sha256: string }>('SELECT sha256 FROM centre_logo WHERE id = 1');
  return rows[0]?.sha256;
}

export async function readLogo(db: Queryable): Promise<StoredLogo | undefined> {
  const rows = await db.queryCached<StoredLogo>(
    'SELECT content_type, image_base64, sha256 FROM centre_logo WHERE id = 1',
  );
  return rows[0];
}

/** Stores the picture over the one there; answers whether it is another picture than before. */
export async function writeLogo(
  tx: Queryable,
  logo: { contentType: CentreLogoType; imageBase64: string; size: number; sha256: string },
): Promise<boolean> {
  const before = await tx.query<{ sha256: string }>('SELECT sha256 FROM centre_logo WHERE id = 1 FOR UPDATE');
  if (before[0]?.sha256 === logo.sha256) return false;
  await tx.query(
    `INSERT INTO centre_logo (id, content_type, image_base64, size_bytes, sha256, updated_at)
     VALUES (1, $1, $2, $3, $4, now())
     ON CONFLICT (id) DO UPDATE SET content_type = EXCLUDED.content_type, image_base64 = EXCLUDED.image_base64,
       size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256, updated_at = now()`,
    [logo.contentType, logo.imageBase64, logo.size, logo.sha256],
  );
  return true;
}

/** Removes the logo; answers whether there was one. */
export async function deleteLogo(tx: Queryable): Promise<boolean> {
  const rows = await tx.query<{ id: number }>('DELETE FROM centre_logo WHERE id = 1 RETURNING id');
  return rows.length > 0;
}
