-- One rule for settling a mail (docs/functions.md, "send-mail"): `edge_settle_mail`, kept for a
-- send-mail deployed before 20261128200000, restated the backoff and the permanent failure that
-- `edge_settle_mails` applies to a batch. It now settles its one mail through that function.

create or replace function public.edge_settle_mail(
  mail_id bigint,
  provider_id text default null,
  error text default null,
  permanent boolean default false
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.edge_settle_mails(jsonb_build_array(jsonb_build_object(
    'mail_id', edge_settle_mail.mail_id,
    'provider_id', edge_settle_mail.provider_id,
    'error', edge_settle_mail.error,
    'permanent', edge_settle_mail.permanent)));
end
$$;

revoke all on function public.edge_settle_mail(bigint, text, text, boolean) from public, anon, authenticated;
grant execute on function public.edge_settle_mail(bigint, text, text, boolean) to service_role;
