package net.servicestack.client;

public interface IPatch {}
