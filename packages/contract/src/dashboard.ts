import { z } from 'zod';
import { notMarkedClassSchema } from './attendance';

/** Everything the dashboard shows, in one call, for admins and teachers alike. */
export const dashboardSummarySchema = z
  .object({
    date: z.string().describe('today, in the centre time zone'),
    total_students: z.number().int(),
    total_teachers: z.number().int(),
    active_classes: z.number().int().describe('distinct class names among students'),
    pending_approval: z.number().int().describe('attendance records waiting for approval, all dates'),
    messages_sent: z.number().int().describe('messages to parents this month'),
    not_reached: z
      .number()
      .int()
      .describe(
        'families a message of the last 7 days did not reach: nothing delivered or read, not sent by hand (the send list and the analytics say the same)',
      ),
    reach: z
      .object({
        families: z.number().int().describe('families of the students who attend (distinct parent phones)'),
        in_app: z.number().int().describe('the parent app reaches them (notifications, or signed in to its inbox)'),
        whatsapp: z.number().int().describe('WhatsApp reaches them (opted in, WhatsApp on) and the app does not'),
        no_channel: z.number().int().describe('no channel reaches them yet: messages to them go on the send list'),
      })
      .describe('how many families each channel reaches now, each once on its best channel'),
    attendance_rate: z.number().describe('(present + late) / approved records this month x 100, one decimal'),
    classes_without_attendance: z
      .array(z.object({ class_name: z.string(), students: z.number().int() }))
      .describe('classes with students but no attendance marked today'),
    classes_not_marked: z
      .array(notMarkedClassSchema)
      .describe(
        'classes with students not marked today (none marked, or some), with how many: never empty while a student has no mark',
      ),
  })
  .meta({ id: 'DashboardSummary' });
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
