/**
 * User text set inside a translated sentence (a car's name, a person's name) as a string, where
 * an element cannot go (a message's placeholder, an accessible name): wrapped in FIRST STRONG
 * ISOLATE … POP DIRECTIONAL ISOLATE, the string form of `<bdi>`, so a Latin name in an Arabic
 * sentence (or the reverse) keeps its own order and leaves the sentence's alone. Display only:
 * never send it to the server (it refuses direction controls in what people type).
 */
export function isolate(text: string): string {
  return text ? `\u2068${text}\u2069` : text;
}
