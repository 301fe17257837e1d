package net.servicestack.client;

public interface IPut {}
