/**
 * Layering and import circles (`npm run lint:imports`, part of `npm run lint`):
 * - no module in lib/ or media-server/ reaches itself through its imports (dynamic imports included;
 *   type-only imports are erased at build time and do not count);
 * - lib/events (the outbox and the webhook delivery) knows no domain module: the domain writes
 *   events, events never call back into the domain.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: split the module so that one side no longer needs the other.',
      from: { path: '^(lib|media-server)/' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'events-know-no-domain',
      severity: 'error',
      comment: 'lib/events writes and delivers events; it never imports lib/domain.',
      from: { path: '^lib/events/' },
      to: { path: '^lib/domain/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^lib/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
