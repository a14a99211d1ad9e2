/**
 * What people type, as the server will read it. Text pasted from contacts, chats or PDFs often
 * carries invisible marks: direction marks and embeddings (U+200E/F, U+202A–U+202E, U+2066–U+2069),
 * zero-width spaces and joiners, a byte-order mark, line breaks. They show nothing, yet
 * `create_booking` refuses a name that holds some (`invalid_name`, internal.booking_draft) and a
 * phone or e-mail that holds any. So the wizard removes them before confirming (a line break or
 * a tab becomes a space), and what is left is what the server accepts:
 * tests/api/typed-text.test.ts holds that for the server's own patterns.
 */

/* eslint-disable no-control-regex -- control characters are what these patterns find */

/** Invisible format characters: nothing to see, nothing to keep (same set as the SQL checks). */
const INVISIBLE = /[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** Control characters and line/paragraph separators: a space in their place. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `value` without invisible marks, controls as spaces, spaces collapsed and trimmed. */
export function cleanTypedText(value: string): string {
  return value.replace(INVISIBLE, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

/** Free text (the requests): invisible marks out, line breaks kept, ends trimmed. */
export function cleanTypedParagraphs(value: string): string {
  return value
    .replace(INVISIBLE, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .trim();
}

/** True when cleaning changes more than the ends' spaces (the form then says it cleaned). */
export function hadHiddenCharacters(value: string): boolean {
  return /[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/.test(
    value,
  );
}

/**
 * The server's mailbox rule (internal.is_mailable_address): at most 254 characters, a local part
 * of ASCII letters, digits and !#$%&'*+/=?^_`{|}~.- and a domain of ASCII labels.
 */
export function isMailableAddress(value: string): boolean {
  return (
    value.length <= 254 &&
    /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(value)
  );
}
