/** The product name, never translated. */
export const BRAND_NAME = 'Kiraa';
