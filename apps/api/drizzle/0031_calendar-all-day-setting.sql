-- Whether all-day events of the caregivers' calendars block their days even when marked "Free"
-- (Google Calendar's default for an all-day event): on by default, a clinic may turn it off.
ALTER TABLE "clinics" ADD COLUMN "calendar_all_day_events_block" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- The mirror keeps an all-day "Free" event marked as such, so the setting applies when slots are
-- read, to events already mirrored too (docs/calendar-sync.md, "What blocks a slot").
ALTER TABLE "calendar_events" ADD COLUMN "all_day_free" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Rows mirrored before this column are not marked yet: every calendar's next pass reads it whole.
UPDATE "calendar_syncs" SET "full_synced_at" = NULL;
