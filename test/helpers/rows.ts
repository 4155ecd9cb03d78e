// Rows and vectors the repository tests insert, made one way.

/** A workspace row as the repositories take it. */
export const workspaceRow = (id: string, createdAt = 1) => ({
  id,
  name: id,
  plan: "pro" as const,
  settings: {},
  allowedEmailDomains: [],
  iconUrl: null,
  createdAt,
  updatedAt: createdAt,
});

/** A unit vector of 8 dimensions pointing mostly along axis `i`, leaning `tilt` towards the next. */
export const axisVector = (i: number, tilt = 0) => {
  const x = new Float32Array(8).fill(0.01);
  x[i] = 1;
  x[(i + 1) % 8] = tilt;
  const n = Math.hypot(...x);
  return x.map((c) => c / n);
};
