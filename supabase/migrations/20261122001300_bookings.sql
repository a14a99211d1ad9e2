-- Bookings, reviews and notifications, with the tables only the server sees (mail outbox, rate
-- limits). Bookings are written only by the RPCs (20261122001500_booking_rpcs.sql); the database
-- itself makes a double booking impossible. See docs/database.md.

-- ---------------------------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------------------------
create table public.bookings (
  -- Generated on the device: the idempotency key of create_booking.
  id uuid primary key,
  reference text not null,
  user_id uuid references public.profiles (id) on delete restrict,
  guest_name text,
  guest_phone text,
  guest_email text,
  car_id uuid not null references public.cars (id) on delete restrict,
  start_at timestamptz not null,
  end_at timestamptz not null,
  period tstzrange generated always as (tstzrange(start_at, end_at, '[)')) stored,
  pickup_location_id uuid not null references public.locations (id) on delete restrict,
  dropoff_location_id uuid not null references public.locations (id) on delete restrict,
  driver_option text not null,
  license_path text not null,
  flight_document_path text,
  from_abroad boolean not null default false,
  additional_requests text,
  extras text[] not null default '{}',
  insurance text[] not null default '{civil_liability}',
  payment_method text not null default 'cash',
  payment_status text not null default 'unpaid',
  price jsonb not null,
  total_dzd integer not null,
  notes text,
  status text not null default 'pending',
  status_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on column public.bookings.period is
  'tstzrange(start_at, end_at, ''[)''): a return at 10:00 and the next pickup at 10:00 do not overlap.';
comment on column public.bookings.notes is 'Staff notes; not settable by customers.';

create table public.reviews (
  id uuid primary key default gen_random_uuid(),
  booking_id uuid not null unique,
  car_id uuid not null references public.cars (id) on delete restrict,
  user_id uuid not null references public.profiles (id) on delete cascade,
  rating smallint not null,
  comment text,
  created_at timestamptz not null default now()
);

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  booking_id uuid references public.bookings (id) on delete cascade,
  type text not null,
  is_read boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Mail the relay sends (locally: the stack's dev mailbox; in production: a scheduled function or
-- a database webhook to the mail provider). The relay sets sent_at.
create table internal.mail_outbox (
  id bigint generated always as identity primary key,
  to_email text not null,
  subject text not null,
  body_text text not null,
  booking_id uuid,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);

-- One row per find_guest_booking call, kept for a minute.
create table internal.guest_lookup_attempts (
  ip text not null,
  attempted_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- Constraints
-- ---------------------------------------------------------------------------------------------
alter table public.bookings
  add constraint bookings_reference_key unique (reference),
  -- Lets reviews point at (booking, car, customer) together.
  add constraint bookings_id_car_user_key unique (id, car_id, user_id),
  add constraint bookings_reference_format
    check (reference ~ '^KR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$'),
  add constraint bookings_guest_contact check (
    user_id is not null
    or (guest_name is not null and guest_phone is not null and guest_email is not null)
  ),
  add constraint bookings_guest_name_length check (char_length(trim(guest_name)) between 1 and 120),
  add constraint bookings_guest_phone_format check (guest_phone ~ '^\+[0-9]{8,15}$'),
  add constraint bookings_guest_email_format check (
    char_length(guest_email) <= 254 and guest_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
  ),
  add constraint bookings_end_after_start check (end_at > start_at),
  add constraint bookings_at_most_90_days check (end_at - start_at <= interval '90 days'),
  add constraint bookings_driver_option_known check (driver_option in ('self', 'provided')),
  add constraint bookings_license_path_in_folder check (
    starts_with(license_path, id::text || '/') and char_length(license_path) <= 300
  ),
  add constraint bookings_flight_document_path_in_folder check (
    starts_with(flight_document_path, id::text || '/') and char_length(flight_document_path) <= 300
  ),
  add constraint bookings_flight_document_when_abroad check (
    not from_abroad or flight_document_path is not null
  ),
  add constraint bookings_additional_requests_length check (char_length(additional_requests) <= 500),
  add constraint bookings_insurance_has_civil_liability check ('civil_liability' = any (insurance)),
  add constraint bookings_payment_method_cash check (payment_method = 'cash'),
  add constraint bookings_payment_status_known check (payment_status in ('unpaid', 'paid', 'refunded')),
  add constraint bookings_price_shape check (
    jsonb_typeof(price) = 'object' and (price ->> 'total')::integer = total_dzd
  ),
  add constraint bookings_total_positive check (total_dzd >= 0),
  add constraint bookings_notes_length check (char_length(notes) <= 2000),
  add constraint bookings_status_known check (
    status in ('pending', 'reserved', 'in_progress', 'completed', 'cancelled', 'rejected')
  ),
  add constraint bookings_status_reason_length check (char_length(status_reason) <= 500),
  -- The database itself makes a double booking impossible.
  add constraint bookings_no_overlap exclude using gist (car_id with =, period with &&)
    where (status in ('pending', 'reserved', 'in_progress'));

alter table public.reviews
  add constraint reviews_booking_fkey foreign key (booking_id, car_id, user_id)
    references public.bookings (id, car_id, user_id) on delete cascade,
  add constraint reviews_rating_range check (rating between 1 and 5),
  add constraint reviews_comment_length check (char_length(comment) <= 1000);

alter table public.notifications
  add constraint notifications_type_format check (type ~ '^[a-z][a-z_]{1,39}$');

alter table internal.mail_outbox
  add constraint mail_outbox_to_email_format check (to_email ~ '^[^@\s]+@[^@\s]+$');

create index bookings_user_id_created_at_idx on public.bookings (user_id, created_at desc);
create index bookings_status_start_at_idx on public.bookings (status, start_at);
create index bookings_car_id_idx on public.bookings (car_id);
create index bookings_pickup_location_id_idx on public.bookings (pickup_location_id);
create index bookings_dropoff_location_id_idx on public.bookings (dropoff_location_id);
create index reviews_car_id_created_at_idx on public.reviews (car_id, created_at desc);
create index reviews_user_id_idx on public.reviews (user_id);
create index notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);
create index notifications_booking_id_idx on public.notifications (booking_id);
create index mail_outbox_unsent_idx on internal.mail_outbox (created_at) where sent_at is null;
create index guest_lookup_attempts_ip_idx on internal.guest_lookup_attempts (ip, attempted_at);

-- ---------------------------------------------------------------------------------------------
-- Views
-- ---------------------------------------------------------------------------------------------
-- Reviews as car pages show them: public, without the booking or the customer's id; the author
-- as "Karim B.". Runs with its owner's rights (the reviews table itself is private).
create view public.car_reviews
with (security_barrier = true)
as
select
  r.id,
  r.car_id,
  r.rating,
  r.comment,
  r.created_at,
  trim(
    split_part(trim(p.full_name), ' ', 1)
    || case
      when position(' ' in trim(p.full_name)) > 0
        then ' ' || upper(left(regexp_replace(trim(p.full_name), '^.*\s', ''), 1)) || '.'
      else ''
    end
  ) as author_name
from public.reviews r
join public.profiles p on p.id = r.user_id;

-- ---------------------------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------------------------

-- A booking as the RPCs return it: every column but the internal range.
create or replace function internal.booking_json(b public.bookings)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select to_jsonb(b) - 'period'
$$;

-- The notification type a staff status change writes.
create or replace function internal.status_notification_type(status text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case status
    when 'reserved' then 'booking_accepted'
    when 'rejected' then 'booking_rejected'
    when 'in_progress' then 'booking_started'
    when 'completed' then 'booking_completed'
    when 'cancelled' then 'booking_cancelled'
  end
$$;

-- The mail a guest receives, in French, then English, then Arabic (kind: the new status, or
-- 'pending' for the confirmation of a new booking). Times are Algiers time.
create or replace function internal.guest_mail(b public.bookings, kind text)
returns table (subject text, body_text text)
language plpgsql
stable
set search_path = ''
as $$
declare
  car_name text;
  pickup jsonb;
  dropoff jsonb;
  starts text := to_char(b.start_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
  ends text := to_char(b.end_at at time zone 'Africa/Algiers', 'DD/MM/YYYY HH24:MI');
  reason text := nullif(trim(coalesce(b.status_reason, '')), '');
  fr_title text;
  en_title text;
  ar_title text;
  fr text;
  en text;
  ar text;
begin
  select c.name into car_name from public.cars c where c.id = b.car_id;
  select l.name into pickup from public.locations l where l.id = b.pickup_location_id;
  select l.name into dropoff from public.locations l where l.id = b.dropoff_location_id;

  case kind
    when 'pending' then
      fr_title := 'Demande de réservation reçue';
      en_title := 'Booking request received';
      ar_title := 'تم استلام طلب الحجز';
      fr := 'Nous avons bien reçu votre demande de réservation. Notre équipe la confirme au plus vite.';
      en := 'We have received your booking request. Our team will confirm it shortly.';
      ar := 'لقد استلمنا طلب الحجز الخاص بك. سيؤكده فريقنا في أقرب وقت.';
    when 'reserved' then
      fr_title := 'Réservation confirmée';
      en_title := 'Booking confirmed';
      ar_title := 'تم تأكيد الحجز';
      fr := 'Bonne nouvelle : votre réservation est confirmée. La voiture vous attend.';
      en := 'Good news: your booking is confirmed. The car is waiting for you.';
      ar := 'خبر سار: تم تأكيد حجزك. السيارة في انتظارك.';
    when 'rejected' then
      fr_title := 'Réservation refusée';
      en_title := 'Booking declined';
      ar_title := 'تم رفض الحجز';
      fr := 'Nous sommes désolés : votre réservation n''a pas pu être acceptée.';
      en := 'We are sorry: your booking could not be accepted.';
      ar := 'نأسف، تعذر قبول حجزك.';
    when 'in_progress' then
      fr_title := 'Location commencée';
      en_title := 'Rental started';
      ar_title := 'بدأت فترة الكراء';
      fr := 'Votre location a commencé. Bonne route !';
      en := 'Your rental has started. Have a good trip!';
      ar := 'بدأت فترة الكراء. رحلة سعيدة!';
    when 'completed' then
      fr_title := 'Location terminée';
      en_title := 'Rental completed';
      ar_title := 'انتهت فترة الكراء';
      fr := 'Votre location est terminée. Merci d''avoir choisi Kiraa !';
      en := 'Your rental is complete. Thank you for choosing Kiraa!';
      ar := 'انتهت فترة الكراء. شكرا لاختيارك كراء!';
    when 'cancelled' then
      fr_title := 'Réservation annulée';
      en_title := 'Booking cancelled';
      ar_title := 'تم إلغاء الحجز';
      fr := 'Votre réservation a été annulée.';
      en := 'Your booking has been cancelled.';
      ar := 'تم إلغاء حجزك.';
    else
      return;
  end case;

  subject := 'Kiraa · ' || fr_title || ' · ' || en_title || ' · ' || ar_title || ' · ' || b.reference;
  body_text := concat_ws(E'\n',
    'Bonjour ' || b.guest_name || ',',
    '',
    fr,
    case when reason is not null then 'Motif : ' || reason end,
    'Référence : ' || b.reference,
    'Voiture : ' || car_name,
    'Prise en charge : ' || starts || ', ' || (pickup ->> 'fr'),
    'Retour : ' || ends || ', ' || (dropoff ->> 'fr'),
    'Total : ' || b.total_dzd || ' DZD, en espèces à la prise en charge',
    'Retrouvez votre réservation avec sa référence sur la page « Trouver ma réservation ». '
      || 'Pour la modifier ou l''annuler, contactez l''agence.',
    '',
    '— English —',
    'Hello ' || b.guest_name || ',',
    en,
    case when reason is not null then 'Reason: ' || reason end,
    'Reference: ' || b.reference,
    'Car: ' || car_name,
    'Pickup: ' || starts || ', ' || (pickup ->> 'en'),
    'Return: ' || ends || ', ' || (dropoff ->> 'en'),
    'Total: ' || b.total_dzd || ' DZD, cash at pickup',
    'Find your booking with its reference on the "Find my booking" page. '
      || 'To change or cancel it, contact the agency.',
    '',
    '— العربية —',
    'مرحبا ' || b.guest_name || '،',
    ar,
    case when reason is not null then 'السبب: ' || reason end,
    'المرجع: ' || b.reference,
    'السيارة: ' || car_name,
    'الاستلام: ' || starts || '، ' || (pickup ->> 'ar'),
    'الإرجاع: ' || ends || '، ' || (dropoff ->> 'ar'),
    'المجموع: ' || b.total_dzd || ' دج، نقدا عند الاستلام',
    'يمكنك العثور على حجزك بمرجعه في صفحة «العثور على حجزي». للتعديل أو الإلغاء، اتصل بالوكالة.',
    '',
    'Kiraa · heure d''Alger (UTC+1) · Algiers time · بتوقيت الجزائر'
  );
  return next;
end
$$;

-- New guest booking → confirmation mail.
create or replace function internal.on_booking_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.user_id is null and new.guest_email is not null then
    insert into internal.mail_outbox (to_email, subject, body_text, booking_id)
    select new.guest_email, m.subject, m.body_text, new.id
      from internal.guest_mail(new, 'pending') m;
  end if;
  return null;
end
$$;

-- Status change by anyone but the customer themself (staff, or the service role) → a notification
-- for a signed-in customer, a mail for a guest. A customer's own cancellation writes nothing.
create or replace function internal.on_booking_status_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  kind text := internal.status_notification_type(new.status);
begin
  if kind is null then
    return null;
  end if;
  if new.user_id is not null then
    if new.user_id is distinct from auth.uid() then
      insert into public.notifications (user_id, booking_id, type)
      values (new.user_id, new.id, kind);
    end if;
  elsif new.guest_email is not null then
    insert into internal.mail_outbox (to_email, subject, body_text, booking_id)
    select new.guest_email, m.subject, m.body_text, new.id
      from internal.guest_mail(new, new.status) m;
  end if;
  return null;
end
$$;

-- Review written or removed → the car's rating_avg / rating_count (which bumps cars.updated_at,
-- so the app's catalogue delta carries the new stars).
create or replace function internal.refresh_car_rating()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  ids uuid[];
begin
  if tg_op = 'INSERT' then
    ids := array[new.car_id];
  elsif tg_op = 'DELETE' then
    ids := array[old.car_id];
  else
    ids := array[old.car_id, new.car_id];
  end if;
  update public.cars c
     set rating_count = s.n,
         rating_avg = s.avg
    from (
      select i.id, count(r.id)::integer as n, round(avg(r.rating), 2) as avg
        from unnest(ids) as i(id)
        left join public.reviews r on r.car_id = i.id
       group by i.id
    ) s
   where c.id = s.id;
  return null;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Triggers
-- ---------------------------------------------------------------------------------------------
create trigger bookings_set_updated_at
  before update on public.bookings
  for each row execute function internal.set_updated_at();

create trigger bookings_mail_guest_on_create
  after insert on public.bookings
  for each row execute function internal.on_booking_created();

create trigger bookings_notify_on_status_change
  after update of status on public.bookings
  for each row
  when (old.status is distinct from new.status)
  execute function internal.on_booking_status_changed();

create trigger notifications_set_updated_at
  before update on public.notifications
  for each row execute function internal.set_updated_at();

create trigger reviews_refresh_car_rating
  after insert or update or delete on public.reviews
  for each row execute function internal.refresh_car_rating();

-- ---------------------------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------------------------
alter table public.bookings enable row level security;
alter table public.reviews enable row level security;
alter table public.notifications enable row level security;
alter table internal.mail_outbox enable row level security;
alter table internal.guest_lookup_attempts enable row level security;

-- Bookings: read your own (admins read all); every write goes through the RPCs. Guests never
-- read the table: find_guest_booking answers them.
create policy "Customers read their own bookings and admins read all"
  on public.bookings for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));

-- Reviews: the full rows (booking, customer) to their author and admins; everyone else reads
-- public.car_reviews. Reviews are written by submit_review; admins may remove one.
create policy "Authors read their own reviews and admins read all"
  on public.reviews for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_admin()));
create policy "Admins delete reviews"
  on public.reviews for delete to authenticated
  using ((select public.is_admin()));

-- Notifications: your own, read and marked read (only is_read and updated_at are writable).
create policy "Customers read their own notifications"
  on public.notifications for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Customers mark their own notifications"
  on public.notifications for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- ---------------------------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------------------------
revoke all on table public.bookings, public.reviews, public.notifications from anon, authenticated;
revoke all on table public.car_reviews from anon, authenticated;

grant select on table public.bookings to authenticated;
grant select, delete on table public.reviews to authenticated;
grant select on table public.notifications to authenticated;
grant update (is_read, updated_at) on table public.notifications to authenticated;
grant select on table public.car_reviews to anon, authenticated;

grant all on table public.bookings, public.reviews, public.notifications, public.car_reviews
  to service_role;

revoke all on table internal.mail_outbox, internal.guest_lookup_attempts from public;

revoke all on function internal.booking_json(public.bookings) from public;
revoke all on function internal.status_notification_type(text) from public;
revoke all on function internal.guest_mail(public.bookings, text) from public;
revoke all on function internal.on_booking_created() from public;
revoke all on function internal.on_booking_status_changed() from public;
revoke all on function internal.refresh_car_rating() from public;
