/**
 * Markup that index.html carries as text (`<script type="text/html">`): the parser only scans it
 * for its end, where a `<template>` would build every copy's elements, the five a visit does not
 * show included, on every page, at 4× CPU on a phone. The chooser and the card drawing parse the
 * one they use. Prerendered markup never holds a script; if it ever did, its `</script>` would end
 * the text early: the build stops instead.
 */
export function inertMarkup(id: string, html: string): string {
  if (/<\/?script/i.test(html)) throw new Error(`first-screen: ${id} holds a <script>`);
  return `<script type="text/html" id="${id}">${html}</script>`;
}
