// The English dictionary is the list of keys: zh-CN.ts must define exactly these (a missing or extra key
// is a type error there). `{name}` placeholders are filled by t().
export const enUS = {
  'app.name': 'E-Signature Platform',
  'app.loading': 'Loading…',
  'common.back': 'Back',
  'common.backHome': 'Back to the home page',
  'common.ok': 'OK',
  'common.cancel': 'Cancel',
  'common.language': 'Language',

  'http.loginTimedOut': 'Login timed out, please log in again',
  'http.noPermission': 'User has no permission',
  'http.connectionError': 'Connection error, please try again later',
  'http.cannotConnect': 'Failed to connect to the server',

  'field.phone': 'Phone',
  'field.password': 'Password',
  'field.showPassword': 'Show password',
  'field.hidePassword': 'Hide password',
  'field.confirmPassword': 'Confirm password',
  'field.newPassword': 'New password',
  'field.smsCode': 'SMS code',
  'rule.phoneRequired': 'Please enter your phone number',
  'rule.phoneFormat': 'Enter an 11-digit mobile number starting with 1',
  'rule.passwordRequired': 'Please enter your password',
  'rule.passwordFormat': '8 to 64 characters with at least one letter and one digit',
  'rule.confirmRequired': 'Please enter the password again',
  'rule.confirmMismatch': 'The two passwords do not match',
  'rule.smsRequired': 'Please enter the SMS code',
  'rule.smsFormat': 'The SMS code has 6 digits',

  'auth.login.title': 'Log in',
  'auth.login.submit': 'Log in',
  'auth.login.toRegister': 'Register',
  'auth.login.forgot': 'Forgot password',
  'auth.login.noAccount': 'No account yet?',
  'auth.mobileLogin.title': 'Log in on your phone',
  'auth.register.title': 'Register',
  'auth.register.submit': 'Register',
  'auth.register.createCompany': 'Create a company',
  'auth.register.haveAccount': 'Already have an account?',
  'auth.register.toLogin': 'Log in',
  'auth.register.done': 'Registered. You are now logged in.',
  'auth.sms.get': 'Get code',
  'auth.sms.resend': 'Resend in {seconds} s',
  'auth.sms.sent': 'The SMS code has been sent',
  'auth.sms.devOutbox': 'Development: no real SMS is sent. The code is in the development outbox',
  'auth.password.title': 'Reset password',
  'auth.password.submit': 'Reset password',
  'auth.password.done': 'Password changed. Please log in with the new password.',
  'auth.password.toLogin': 'Back to log in',

  'layout.logout': 'Log out',
  'layout.login': 'Log in',
  'layout.menu': 'Menu',
  'layout.userMenu': 'Account menu',
  'layout.actingAs': 'Acting as {who}',
  'layout.footer': '{name} · electronic signatures and contracts',
  'layout.loggedOut': 'You have logged out',
  'menu.startup': 'Get started',
  'menu.home': 'Launch signing',
  'menu.fileTemplate': 'Templates',
  'menu.signConfig': 'Signing settings',
  'menu.webhooks': 'Webhooks',
  'menu.productList': 'Packages',
  'menu.account': 'Account',
  'menu.stamp': 'Seals',
  'menu.operator': 'Operators',
  'menu.apiKeys': 'API keys',
  'menu.adminPackages': 'Package administration',

  'error.title': 'Something went wrong',
  'error.text': 'This page could not be shown. Reload to try again.',
  'error.reload': 'Reload',

  'notFound.title': 'Page not found',
  'notFound.text': 'There is no page at {path}.',

  'companyOpen.title': 'Congratulations! You have successfully opened e-signature!',
  'companyOpen.title2':
    "Your e-signature account is open. Click the 'Enter e-signature system' button below to enter the workspace and use more functions.",
  'companyOpen.enter': 'Enter e-signature system',

  'pager.total': '{total, plural, one {# item} other {# items}} in total',

  'bridge.unsupported': 'Browser does not support this function',
  'bridge.urlEmpty': 'The url cannot be empty',

  'photo.open': 'View image',
} as const;

export type MessageKey = keyof typeof enUS;
export type Messages = { [K in MessageKey]: string };
