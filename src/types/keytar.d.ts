declare module "keytar";
