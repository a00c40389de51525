import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';

export interface SendPermissionsProps {
  readonly ownerEmail: string;
  readonly senderEmail: string;
  /** The SES configuration set every send names (its event destination reports each mail's fate). */
  readonly configurationSetName: string;
}

export interface ContactPermissionsProps extends SendPermissionsProps {
  /** SSM SecureString name holding the reCAPTCHA secret. */
  readonly recaptchaSecretParameter: string;
}

/**
 * The SES identities a send from senderEmail to ownerEmail is authorized against. SES checks the
 * identity it matched: the address when the address itself is verified, else its domain; so both are
 * granted. In the sandbox it checks the recipient's identity too, so the owner's address and domain
 * are granted as well (the mail goes only to the owner).
 */
export function sesIdentitiesFor(props: Pick<ContactPermissionsProps, 'ownerEmail' | 'senderEmail'>): string[] {
  const identities = [props.senderEmail, props.ownerEmail].flatMap((address) => {
    const at = address.lastIndexOf('@');
    return [address, address.slice(at + 1).toLowerCase()];
  });
  return [...new Set(identities)];
}

/**
 * Send as the sender address only, through the stack's configuration set only. A send that names a
 * configuration set is authorized against that set's ARN as well as the identity, so both are
 * granted (IAM's "Actions, resources, and condition keys for Amazon SES": SendEmail's resource
 * types are configuration-set and identity), each under the same From-address condition.
 */
export function grantSendAsSender(fn: lambda.IFunction, props: SendPermissionsProps): void {
  const stack = Stack.of(fn);
  const identityArn = (identity: string) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity });
  const fromSenderOnly = { StringEquals: { 'ses:FromAddress': props.senderEmail } };
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      sid: 'SendAsSenderAddressOnly',
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: sesIdentitiesFor(props).map(identityArn),
      conditions: fromSenderOnly,
    }),
  );
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      sid: 'SendThroughTheArchiveConfigurationSetOnly',
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: [stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: props.configurationSetName })],
      conditions: fromSenderOnly,
    }),
  );
}

/** What the contact function needs beyond its logs and the archive: send as the sender only, read only its secret. */
export function grantContactPermissions(fn: lambda.IFunction, props: ContactPermissionsProps): void {
  const stack = Stack.of(fn);
  grantSendAsSender(fn, props);
  // The parameter is encrypted with the AWS-managed aws/ssm key, whose key policy already lets any
  // principal of the account decrypt through SSM: no kms statement is needed. Source: Systems Manager
  // User Guide, "Restricting decryption of SecureString parameter values":
  // https://docs.aws.amazon.com/systems-manager/latest/userguide/ps-restrict-decryption.html
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      sid: 'ReadRecaptchaSecretOnly',
      actions: ['ssm:GetParameter'],
      resources: [ssmParameterArn(stack, props.recaptchaSecretParameter)],
    }),
  );
}

/** arn:…:parameter/name for "/name" and "name" alike (the ARN never has a double slash). */
export function ssmParameterArn(stack: Stack, name: string): string {
  return stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: name.replace(/^\//, '') });
}
