package net.servicestack.client;

public interface IOptions {}
