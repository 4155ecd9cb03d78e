// How the searches merge ranked lists (by words, by meaning, articles) into one.

/** Reciprocal-rank fusion's constant: the usual 60, which damps the top ranks' lead. */
export const RRF_K = 60;

/** A fused score as the API shows it: four decimals. */
export const round = (x: number) => Math.round(x * 10000) / 10000;
