package net.servicestack.client;

public interface IMeta {}
