// Vitest runs only the matcher suite (the other tests have their own runners).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/matchers/vitest.test.mjs"],
    globals: false,
  },
});
