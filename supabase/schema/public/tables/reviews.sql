-- table public.reviews: the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

create table public.reviews (
  id uuid default gen_random_uuid() not null,
  booking_id uuid not null,
  car_id uuid not null,
  user_id uuid not null,
  rating smallint not null,
  comment text,
  created_at timestamp with time zone default now() not null,
  constraint reviews_comment_length CHECK ((char_length(comment) <= 1000)),
  constraint reviews_rating_range CHECK (((rating >= 1) AND (rating <= 5))),
  constraint reviews_booking_fkey FOREIGN KEY (booking_id, car_id, user_id) REFERENCES bookings(id, car_id, user_id) ON DELETE CASCADE,
  constraint reviews_car_id_fkey FOREIGN KEY (car_id) REFERENCES cars(id) ON DELETE RESTRICT,
  constraint reviews_user_id_fkey FOREIGN KEY (user_id) REFERENCES profiles(id) ON DELETE CASCADE,
  constraint reviews_pkey PRIMARY KEY (id),
  constraint reviews_booking_id_key UNIQUE (booking_id)
);
CREATE INDEX reviews_car_id_created_at_idx ON public.reviews USING btree (car_id, created_at DESC);
CREATE INDEX reviews_user_id_idx ON public.reviews USING btree (user_id);
alter table public.reviews enable row level security;
grant delete, select on table public.reviews to authenticated;
grant delete, insert, references, select, trigger, truncate, update on table public.reviews to service_role;
