import { z } from 'zod';

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
      .describe('families on the call list: no channel reached them in time, or they asked to be called'),
    attendance_rate: z.number().describe('(present + late) / approved records this month x 100, one decimal'),
    classes_without_attendance: z
      .array(z.object({ class_name: z.string(), students: z.number().int() }))
      .describe('classes with students but no attendance marked today'),
  })
  .meta({ id: 'DashboardSummary' });
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
