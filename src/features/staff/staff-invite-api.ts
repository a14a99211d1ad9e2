/** Calls the invite-staff Edge Function with the staff member's own session (docs/auth.md). */
import { supabase } from '@/infra/supabase';

import {
  inviteBody,
  inviteOutcome,
  type InviteForm,
  type InviteOutcome,
} from '@/features/staff/staff-invite';

export async function inviteStaff(form: InviteForm): Promise<InviteOutcome> {
  const redirectTo = `${window.location.origin}/accept-invite`;
  try {
    const { error, response } = await supabase.functions.invoke('invite-staff', {
      body: inviteBody(form, redirectTo),
    });
    if (!error) return 'sent';
    if (!response) return inviteOutcome(null, null);
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    return inviteOutcome(response.status, body.error ?? null);
  } catch {
    return 'offline';
  }
}
