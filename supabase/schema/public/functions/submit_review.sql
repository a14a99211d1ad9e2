-- function public.submit_review(booking_id uuid, rating integer, comment text): the live definition, generated from supabase/migrations by
-- `npm run test:supabase -- --update` (scripts/schema-mirror.ts). Change it with a new migration.

CREATE OR REPLACE FUNCTION public.submit_review(booking_id uuid, rating integer, comment text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  uid uuid := auth.uid();
  b public.bookings;
  r public.reviews;
  body text := nullif(trim(coalesce(submit_review.comment, '')), '');
begin
  if uid is null then
    perform internal.fail('not_allowed', 'sign in to review a booking');
  end if;
  if submit_review.rating is null or submit_review.rating not between 1 and 5 then
    perform internal.fail('invalid_rating', coalesce(submit_review.rating::text, 'rating is required'));
  end if;
  if char_length(body) > 1000 then
    perform internal.fail('comment_too_long', char_length(body) || ' characters');
  end if;

  select x.* into b from public.bookings x where x.id = submit_review.booking_id for update;
  if not found or b.user_id is distinct from uid or b.status <> 'completed' then
    perform internal.fail('review_not_allowed',
      'only the customer of a completed booking may review it');
  end if;

  select x.* into r from public.reviews x where x.booking_id = b.id;
  if found then
    if r.rating = submit_review.rating and r.comment is not distinct from body then
      return to_jsonb(r);
    end if;
    perform internal.fail('already_reviewed', b.id::text);
  end if;

  insert into public.reviews (booking_id, car_id, user_id, rating, comment)
  values (b.id, b.car_id, uid, submit_review.rating, body)
  returning * into r;
  return to_jsonb(r);
end
$function$;

grant execute on function public.submit_review(booking_id uuid, rating integer, comment text) to authenticated;
grant execute on function public.submit_review(booking_id uuid, rating integer, comment text) to service_role;
