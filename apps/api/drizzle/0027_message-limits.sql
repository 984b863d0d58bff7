ALTER TABLE "appointment_reminders" DROP CONSTRAINT "appointment_reminders_status_check";--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD CONSTRAINT "appointment_reminders_status_check" CHECK ("appointment_reminders"."status" IN ('scheduled', 'sent', 'withdrawn', 'missed', 'refused'));
