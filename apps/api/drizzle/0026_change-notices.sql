ALTER TABLE "clinics" ADD COLUMN "notify_booked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "notify_moved" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clinics" ADD COLUMN "notify_cancelled" boolean DEFAULT true NOT NULL;
