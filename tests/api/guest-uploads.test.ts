/**
 * Anonymous uploads only where a booking will name them, within a budget per client address
 * (docs/decisions.md, "Guest uploads"; migration 20261126100300_guest_uploads): one file per
 * bucket in the folder of a booking not made yet, and per address and hour at most
 * settings.max_guest_upload_mb_per_address_hour of files no booking names yet. A traveller's file
 * is named by their booking seconds later, so a hall behind one address never fills it.
 */
import { randomUUID } from 'node:crypto';

import { describe, expect, it, onTestFinished } from 'vitest';

import { sql } from '../support/clients.ts';
import {
  adminClient,
  algiersAt,
  createBooking,
  draft,
  guestContact,
  newCar,
  randomIp,
  visitor,
} from '../support/fixtures.ts';

/** A real PNG (its signature), padded to `bytes`: storage checks the type by the first bytes. */
function png(bytes: number): Blob {
  const head = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  return new Blob([Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length))])], {
    type: 'image/png',
  });
}

const MB = 1024 * 1024;

describe('anonymous booking files', () => {
  it('take one file per bucket in the folder of a booking not made yet', async () => {
    const guest = visitor();
    const folder = randomUUID();
    const licences = guest.storage.from('licenses');
    expect((await licences.upload(`${folder}/permis.png`, png(2000))).error).toBeNull();
    const second = await licences.upload(`${folder}/autre.png`, png(2000));
    expect(second.error).toMatchObject({ statusCode: '403' });
    // The same file again (a retry whose first answer was lost) is a duplicate, as before.
    const again = await licences.upload(`${folder}/permis.png`, png(2000));
    expect(again.error).toMatchObject({ statusCode: '409' });
    // The flight document has its own place in the same folder.
    const flight = guest.storage.from('flight-documents');
    expect((await flight.upload(`${folder}/billet.png`, png(2000))).error).toBeNull();
    expect((await flight.upload(`${folder}/billet2.png`, png(2000))).error).toMatchObject({
      statusCode: '403',
    });
  });

  it('from one address weigh at most its hourly budget until a booking names them; another address is not affected', async () => {
    const admin = await adminClient();
    expect(
      (await admin.from('settings').update({ max_guest_upload_mb_per_address_hour: 5 }).eq('id', 1))
        .error,
    ).toBeNull();
    onTestFinished(async () => {
      await admin.from('settings').update({ max_guest_upload_mb_per_address_hour: 20 }).eq('id', 1);
    });
    const ip = randomIp();
    const folders: string[] = [];
    for (let i = 0; i < 5; i++) {
      const folder = randomUUID();
      const { error } = await visitor(ip)
        .storage.from('licenses')
        .upload(`${folder}/permis.png`, png(MB - 4096));
      expect(error).toBeNull();
      folders.push(folder);
    }
    const over = await visitor(ip)
      .storage.from('licenses')
      .upload(`${randomUUID()}/permis.png`, png(MB));
    expect(over.error).toMatchObject({ statusCode: '403' });
    // Someone else, elsewhere, uploads as usual.
    expect(
      (await visitor().storage.from('licenses').upload(`${randomUUID()}/permis.png`, png(MB)))
        .error,
    ).toBeNull();
    // A booking names one of the files (the traveller sends it): the address has room again.
    const car = (await newCar()).id;
    const payload = draft(car, {
      id: folders[0],
      license_path: `${folders[0]}/permis.png`,
      start_at: algiersAt(40, 10),
      end_at: algiersAt(41, 10),
      ...guestContact(),
    });
    expect((await createBooking(visitor(ip), payload)).error).toBeNull();
    expect(
      (await visitor(ip).storage.from('licenses').upload(`${randomUUID()}/permis.png`, png(MB)))
        .error,
    ).toBeNull();
    // What is recorded of them: the address and the size, no more.
    const rows = await sql<{ client_key: string; size_bytes: string }>(
      `select client_key, size_bytes::text from internal.guest_uploads where name = $1`,
      [`${folders[1]}/permis.png`],
    );
    expect(rows).toEqual([{ client_key: ip, size_bytes: String(MB - 4096) }]);
  });
});
