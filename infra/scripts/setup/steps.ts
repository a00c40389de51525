/**
 * The steps of `npm run setup`, one per doctor check and in the doctor's order. Each step asks the
 * doctor's own check (doctor/checks.ts) first, so the two never disagree; when it fails, the step shows
 * what it will change and what that costs, asks, applies, and checks again. Nothing is remembered
 * between runs: every run starts from cdk.json and the account, so running it again is the resume.
 */
import type { Step } from './steps/step';
import { credentialsStep } from './steps/credentials';
import { addressesStep } from './steps/addresses';
import { regionStep } from './steps/region';
import { cloudFrontPlanStep } from './steps/cloudfront-plan';
import { bootstrapStep } from './steps/bootstrap';
import { senderStep, ownerStep } from './steps/ses-identities';
import { productionAccessStep } from './steps/production-access';
import { recaptchaStep } from './steps/recaptcha';
import { domainStep } from './steps/domain';
import { alarmStep } from './steps/alarm';
import { budgetStep } from './steps/budget';

/** In the doctor's order. */
export const STEPS: Step[] = [
  credentialsStep,
  addressesStep,
  regionStep,
  // After the region: a plan needs us-east-1.
  cloudFrontPlanStep,
  bootstrapStep,
  senderStep,
  ownerStep,
  productionAccessStep,
  recaptchaStep,
  domainStep,
  alarmStep,
  budgetStep,
];
