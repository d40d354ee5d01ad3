// QR codes for TOTP enrollment, rendered in the browser (the secret never leaves the page)
export { default as qrcode } from 'qrcode-generator';
