/**
 * The digital-certificate usage agreement. Changing its text means a new `version`: acceptance is
 * recorded per version, and a certificate is issued only after the current version is accepted.
 */
export const USER_AGREEMENT = {
  version: '2025-01',
  title: { zh: '数字证书使用协议', en: 'Digital Certificate Usage Agreement' },
  text: {
    zh: [
      '一、本平台在您完成实名认证并同意本协议后，为您签发个人数字证书（X.509，RSA 2048 位）。证书的私钥在平台服务器上生成并加密保存，不会交给任何第三方。',
      '二、证书主题包含您的姓名；身份证号仅以不可逆的密钥散列形式写入证书，平台不保存您的身份证号原文，只保存掩码（前 6 位和后 4 位）。',
      '三、您使用本证书在本平台签署的电子文件，视为您本人的签署行为，具有与手写签名或盖章同等的法律效力（《中华人民共和国电子签名法》）。',
      '四、请妥善保管您的账号、密码和手机号。如手机号丢失，请通过“账号找回”核验身份后更换手机号。发现账号被他人使用时，请立即联系平台吊销证书。',
      '五、证书有效期届满、您的姓名变更或证书信息有误时，平台将为您更新或吊销并重新签发证书；被吊销的证书将在证书吊销列表和 OCSP 服务中公布。',
      '六、平台按照法律法规保存签署记录和证书信息，除法律规定外不向第三方提供。',
    ].join('\n\n'),
    en: [
      '1. Once you have passed the real-name check and accepted this agreement, the platform issues you a personal digital certificate (X.509, RSA 2048). Its private key is generated and kept encrypted on the platform server and is never handed to a third party.',
      '2. The certificate subject holds your name; your ID number enters the certificate only as an irreversible keyed hash. The platform does not keep your ID number, only a masked form (first 6 and last 4 characters).',
      '3. Electronic documents you sign on this platform with this certificate count as signed by you and have the same legal effect as a handwritten signature or seal (Electronic Signature Law of the PRC).',
      '4. Keep your account, password and phone safe. If you lose your phone, change it through "account recovery" after re-checking your identity. If someone else uses your account, ask the platform at once to revoke your certificate.',
      '5. When the certificate expires, your name changes or its details are wrong, the platform renews it, or revokes and reissues it; revoked certificates are published in the certificate revocation list and by the OCSP service.',
      '6. The platform keeps signing records and certificate details as the law requires and gives them to no third party except where the law requires.',
    ].join('\n\n'),
  },
} as const;
