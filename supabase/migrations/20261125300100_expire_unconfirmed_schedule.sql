-- Unconfirmed guest bookings past their deadline become `expired` within a minute, on the same
-- pg_cron schedule as the other jobs (docs/decisions.md, "One schedule"; the local stack runs the
-- same row of cron.job). Correctness does not wait for it (readers ignore lapsed holds): it tells
-- the guest (a mail), the staff board and the history on time.
select cron.schedule('expire-unconfirmed-bookings', '* * * * *',
  'select internal.expire_unconfirmed_bookings()');
