export * from './events';
export * from './finding';
export * from './placeholder';
export * from './redactor';
export * from './settings';
export { SECRETLINT_SKIPPED, SECRETLINT_TRIGGERS, loadSecretlint, shortRuleName } from './rules/secretlint';
