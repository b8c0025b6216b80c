-- CreateTable
CREATE TABLE "service_pulse" (
    "id" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "service_pulse_pkey" PRIMARY KEY ("id")
);
