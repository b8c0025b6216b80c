-- CreateTable
CREATE TABLE "server_secret" (
    "name" VARCHAR(32) NOT NULL,
    "value" VARCHAR(128) NOT NULL,

    CONSTRAINT "server_secret_pkey" PRIMARY KEY ("name")
);
