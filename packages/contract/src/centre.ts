/**
 * The centre itself (ADR 042): its name, logo and time zone, kept in the database and changed by an
 * admin from the console; a value the server's environment fixes (TZ) is shown as fixed, not changed.
 * The country code for phones is the phone settings' (phones.ts), shown on the same page.
 */
import { z } from 'zod';

/** A logo is a small picture: PNG, JPEG or WebP (told by its first bytes), at most this many bytes. */
export const CENTRE_LOGO_MAX_BYTES = 256 * 1024;
export const CENTRE_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type CentreLogoType = (typeof CENTRE_LOGO_TYPES)[number];

/** As the message settings have always taken it. */
export const CENTRE_NAME_MAX_LENGTH = 100;

/** What the centre is called when no one has named it (the spec's product name). */
export const DEFAULT_CENTRE_NAME = 'TuitionDesk';

export const centreNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty: enter the name families know the centre by')
  .max(CENTRE_NAME_MAX_LENGTH, `must be at most ${CENTRE_NAME_MAX_LENGTH} characters`)
  .meta({ example: 'Bright Minds Tuition' });

/** An IANA time zone name, e.g. Asia/Kolkata; the server checks that it knows it. */
export const timeZoneNameSchema = z
  .string()
  .trim()
  .min(1, 'must be a time zone, e.g. Asia/Kolkata')
  .max(64, 'must be a time zone, e.g. Asia/Kolkata')
  .meta({ example: 'Asia/Kolkata' });

/** Whether each value is fixed by the server's environment (then the console shows it and a change is refused). */
export const centreFixedSchema = z.object({
  name: z.boolean(),
  time_zone: z.boolean(),
});

export const centreSchema = z
  .object({
    name: z.string(),
    /** Where the logo is served (public, for the parent app's sign-in too); null: no logo. */
    logo_url: z.string().nullable(),
    /** The zone "today" and every time is in: the one stored, the server's TZ, or until set up the server's own. */
    time_zone: z.string(),
    /** Today's date on the centre's clock (yyyy-MM-dd): the console's "today". */
    today: z.string(),
    /** The centre's clock is ahead of UTC by this many minutes now (330 in India). */
    utc_offset_minutes: z.number().int(),
    /** No time zone stored yet and none fixed by the server: the admin's first sign-in sets the centre up. */
    needs_set_up: z.boolean(),
    fixed_by_server: centreFixedSchema,
  })
  .meta({ id: 'Centre' });
export type Centre = z.infer<typeof centreSchema>;

export const updateCentreSchema = z
  .object({
    name: centreNameSchema.optional(),
    time_zone: timeZoneNameSchema.optional(),
  })
  .refine((update) => update.name !== undefined || update.time_zone !== undefined, {
    message: 'is required: give the name, the time_zone or both',
    path: ['name'],
  });
export type UpdateCentre = z.infer<typeof updateCentreSchema>;

/** A logo upload: the picture's bytes in base64 (at most CENTRE_LOGO_MAX_BYTES once decoded). */
export const uploadCentreLogoSchema = z.object({
  image_base64: z
    .string()
    .min(1, 'must be the picture, base64-encoded')
    .max(Math.ceil(CENTRE_LOGO_MAX_BYTES / 3) * 4 + 1024, 'is too large: a logo is at most 256 KB'),
});
export type UploadCentreLogo = z.infer<typeof uploadCentreLogoSchema>;

/**
 * What anyone may see before signing in (the parent app's sign-in page): the name and the logo; and the
 * centre's time zone, so that the parent app's "today" and times are the centre's, not the phone's.
 */
export const publicCentreSchema = z
  .object({
    name: z.string(),
    logo_url: z.string().nullable(),
    time_zone: z.string().describe("the zone the centre's days and times are in (IANA, e.g. Asia/Kolkata)"),
  })
  .meta({ id: 'PublicCentre' });
export type PublicCentre = z.infer<typeof publicCentreSchema>;
